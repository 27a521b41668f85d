import Foundation
import TransferKit
public import UniformTypes

/// How a written provider's representations become the names a clipboard offers, and offered names become
/// uniform types again on reading.
///
/// Each visible representation is offered, in fidelity order, as its uniform type identifier (so another
/// TransferKit process gets it exactly), then as its MIME types from the catalogue (preferred first, then
/// aliases). A type with no MIME type of its own, such as an app's `com.example.card` conforming to `public.json`,
/// is offered as the preferred MIME type of its most specific supertypes that have one (`application/json`), so
/// that applications that know only the supertype can paste it; `public.data`'s `application/octet-stream` is
/// never offered that way. Plain text adds `text/plain;charset=utf-8`, `text/plain` and, on X11, `UTF8_STRING`,
/// `STRING` (Latin-1) and `TEXT`; file URLs add `text/uri-list` and `x-special/gnome-copied-files` (with the copy
/// or cut operation, and every provider's URLs). On reading, the file lists of other applications (`text/uri-list`,
/// KDE's `application/x-kde4-urilist`) are `org.transferkit.uri-list`, which conforms to `public.file-url`, and the
/// other names desktops and browsers commonly offer have declared types too, so snapshots carry no `dyn.mime…`
/// types for them. A concealed write (or a provider whose `isConcealed` is set) adds `x-kde-passwordManagerHint`
/// (`secret`) and `application/x-nspasteboard-concealed-type`; on reading, these names (and macOS's
/// `org.nspasteboard.ConcealedType`) carry no representation but mark the provider as concealed.
public enum ClipboardTypeMapping {
    /// What one offered name serves.
    enum Conversion: Sendable, Equatable {
        /// The representation's bytes as they are.
        case identity
        /// Plain text as Latin-1 (X11 `STRING`); characters outside it become `?`.
        case latin1
        /// The file URLs of every provider as a `text/uri-list`.
        case uriList
        /// The file URLs of every provider as GNOME's `x-special/gnome-copied-files` (`copy` or `cut`, then URLs).
        case gnomeCopiedFiles(cut: Bool)
        /// Fixed bytes (the sensitivity hints).
        case constant(Data)
    }

    /// One offered name and where its bytes come from.
    struct Offer: Sendable {
        var target: String
        var providerIndex: Int
        var type: UniformType
        var conversion: Conversion
    }

    /// The X11 target names for UTF-8 text, and the MIME types of plain text that every toolkit asks for.
    static let textTargets: [(String, Conversion)] = [
        ("text/plain;charset=utf-8", .identity), ("UTF8_STRING", .identity), ("text/plain", .identity),
        ("STRING", .latin1), ("TEXT", .identity),
    ]

    /// The offers for `providers`, without duplicate names (the first provider and representation win).
    static func offers(
        for providers: [TransferProvider], options: ClipboardWriteOptions, includeX11Names: Bool,
        catalog: TypeCatalog
    ) -> [Offer] {
        var offers: [Offer] = []
        var seen: Set<String> = []
        func add(_ target: String, _ index: Int, _ type: UniformType, _ conversion: Conversion) {
            let key = target.lowercased()
            guard !seen.contains(key) else { return }
            seen.insert(key)
            offers.append(Offer(target: target, providerIndex: index, type: type, conversion: conversion))
        }
        for (index, provider) in providers.enumerated() {
            for type in provider.registeredTypes(visibleTo: .otherProcesses) {
                add(type.identifier, index, type, .identity)
                // A URL list (a `[URL]`'s representation) conforms to public.file-url but is offered as it is.
                if type.conforms(to: .fileURL), !catalog.conforms(type, to: .uriList) {
                    add("text/uri-list", index, type, .uriList)
                    add("x-special/gnome-copied-files", index, type, .gnomeCopiedFiles(cut: options.isCut))
                    continue
                }
                if type.conforms(to: .plainText) {
                    for (target, conversion) in textTargets
                    where includeX11Names || target.contains("/") {
                        add(target, index, type, conversion)
                    }
                }
                let own = catalog.tags(of: type)[.mimeType] ?? []
                for mimeType in own {
                    add(mimeType, index, type, .identity)
                }
                if own.isEmpty {
                    for mimeType in inheritedMIMETypes(of: type, catalog: catalog) {
                        add(mimeType, index, type, .identity)
                    }
                }
            }
        }
        if options.isConcealed || providers.contains(where: \.isConcealed) {
            add("x-kde-passwordManagerHint", 0, .data, .constant(Data("secret".utf8)))
            add("application/x-nspasteboard-concealed-type", 0, .data, .constant(Data()))
        }
        return offers
    }

    /// The names a concealed item is offered with, which mark an item read from the clipboard as concealed.
    static let concealedHints: Set<String> = [
        "x-kde-passwordManagerHint", "application/x-nspasteboard-concealed-type", "org.nspasteboard.ConcealedType",
    ]

    /// The preferred MIME types of the most specific supertypes of `type` that have one (none of them conforms to
    /// another), other than `public.data`, in identifier order.
    static func inheritedMIMETypes(of type: UniformType, catalog: TypeCatalog) -> [String] {
        let tagged = catalog.supertypes(of: type).filter { supertype in
            supertype != .data && catalog.tags(of: supertype)[.mimeType]?.first != nil
        }
        let mostSpecific = tagged.filter { candidate in
            !tagged.contains { other in other != candidate && catalog.conforms(other, to: candidate) }
        }
        return mostSpecific.sorted { $0.identifier < $1.identifier }.compactMap {
            catalog.tags(of: $0)[.mimeType]?.first
        }
    }

    /// The uniform type that an offered name stands for on reading; `nil` for names that carry no data of
    /// their own (`TARGETS`, `MULTIPLE`, …) or that no type can hold.
    ///
    /// A name with a `/` is a MIME type (through the catalogue); one with a `.` and no `/` is a uniform type
    /// identifier; the X11 text names are UTF-8 or Latin-1 text.
    ///
    /// - Parameters:
    ///   - target: The offered name.
    ///   - catalog: The catalogue for MIME types.
    /// - Returns: The type, or `nil`.
    public static func type(forOffered target: String, catalog: TypeCatalog = .shared) -> UniformType? {
        switch target {
        case "UTF8_STRING", "TEXT": return .utf8PlainText
        case "STRING": return .plainText
        default: break
        }
        if target.contains("/") {
            return catalog.type(mimeType: target)
        }
        if target.contains(".") {
            return UniformType(target)
        }
        return nil
    }

    /// The bytes of `offer`, streamed from its provider.
    static func stream(
        for offer: Offer, providers: [TransferProvider], progress: TransferProgress? = nil
    ) async throws -> TransferByteStream {
        switch offer.conversion {
        case .identity:
            return try await providers[offer.providerIndex].loadStream(for: offer.type, progress: progress)
        case .latin1:
            let text = try await providers[offer.providerIndex].loadObject(ofClass: String.self, progress: progress)
            let latin1 = text.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?") }
            return TransferByteStream(data: Data(latin1))
        case .uriList, .gnomeCopiedFiles:
            var urls: [URL] = []
            // Every URL of each provider: one for a URL, all of a URL list.
            for provider in providers where provider.hasRepresentation(conformingTo: .fileURL) {
                urls += try await provider.loadObject(ofClass: [URL].self, progress: progress)
            }
            if case .gnomeCopiedFiles(let cut) = offer.conversion {
                let lines = [cut ? "cut" : "copy"] + urls.map(\.absoluteString)
                return TransferByteStream(data: Data(lines.joined(separator: "\n").utf8))
            }
            return TransferByteStream(data: URL.uriList(urls))
        case .constant(let data):
            return TransferByteStream(data: data)
        }
    }
}
