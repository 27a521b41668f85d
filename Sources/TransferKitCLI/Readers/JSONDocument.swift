import TransferKit
import TransferKitJSON
import TransferKitPlatform
import UniformTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Any JSON document: the reader `transferkit check` uses for `public.json` and every type that conforms to it
/// when no more specific reader is registered.
///
/// It reads with the package's strict JSON parser and holds the document's canonical text (compact, keys sorted,
/// one number spelling), so two documents that differ only in key order, white space or number spelling are
/// equal and re-encode to the same bytes.
struct JSONDocument: TransferProviderReading, TransferProviderWriting, Hashable {
    /// The document's canonical text.
    var canonicalText: [UInt8]

    /// The deepest nesting read: far beyond real documents, bounded so hostile input cannot exhaust the stack.
    static let maximumDepth = 512

    /// `public.json`.
    static var readableTypes: [UniformType] { [.json] }
    /// `public.json`.
    static var writableTypes: [UniformType] { [.json] }

    /// Parses JSON bytes.
    /// - Throws: ``TransferError`` with code `decodingFailed` when the bytes are not JSON.
    static func object(from data: Data, type: UniformType) throws -> JSONDocument {
        do {
            return JSONDocument(
                canonicalText: try JSONParser.parse([UInt8](data), maxDepth: maximumDepth).canonicalText)
        } catch let error where error.kind == .tooDeep {
            // Valid JSON may nest this deep; the reader refuses it to bound its stack, so say that, not "invalid".
            throw TransferError(
                code: .decodingFailed,
                message: "The \(type.identifier) bytes nest arrays and objects deeper than the \(maximumDepth) levels "
                    + "this reader accepts: \(error).", cause: error, source: type.identifier)
        } catch {
            throw TransferError(
                code: .decodingFailed, message: "The \(type.identifier) bytes are not valid JSON: \(error).",
                cause: error, source: type.identifier)
        }
    }

    /// The canonical text, whatever type was asked for.
    func loadData(for type: UniformType, progress: TransferProgress) async throws -> Data {
        progress.finish()
        return Data(canonicalText)
    }
}
