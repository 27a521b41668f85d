import TransferKit

/// Where in a round trip a comparison happens, for messages: `CBOR form, archive read back`.
struct RoundTripStep: Sendable {
    /// The archive form, or `nil` before any archive exists.
    var format: TransferArchiveFormat?
    /// What was just done, such as `archive read back`.
    var stage: String

    var label: String {
        guard let format else { return stage }
        return "\(Self.name(of: format)) form, \(stage)"
    }

    /// `CBOR` or `JSON`.
    static func name(of format: TransferArchiveFormat) -> String {
        format.rawValue.uppercased()
    }

    /// An error at this step.
    func error(
        _ code: RoundTripError.Code, _ message: String, cause: (any Error)? = nil,
        representation: TransferArchive.Representation? = nil, offset: Int? = nil
    ) -> RoundTripError {
        RoundTripError(
            code: code, message: message, cause: cause, source: label, offset: offset,
            details: .init(format: format, type: representation?.type))
    }
}
