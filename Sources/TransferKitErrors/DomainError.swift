/// The one shape of every error TransferKit throws: a ``code`` to compare, a ``message`` for people, the
/// underlying ``cause``, and where the problem was found (``source``, ``offset`` and the domain's ``details``).
///
/// Each library names its own domain with a type alias: `UniformTypeError`, `CBORError`, `TransferArchiveError`,
/// `TransferError`, `RoundTripError` and the tool's `ToolIOError` are all `DomainError`s, so they share one
/// initializer, the same field names and one way of describing themselves. Compare ``code``s to react to a
/// specific problem; new codes can be added without breaking a `switch`, because ``ErrorCode`` is a struct.
///
/// ```swift
/// do {
///     _ = try TransferArchive(decoding: bytes)
/// } catch let error as TransferArchiveError where error.code == .checksumMismatch {
///     print(error.message, error.offset ?? -1)
/// }
/// ```
@dynamicMemberLookup
public struct DomainError<Domain: ErrorDomain>: Error, Sendable, CustomStringConvertible {
    /// The domain's codes.
    public typealias Code = ErrorCode<Domain>

    /// What kind of problem this is.
    public var code: Code
    /// What went wrong and what to do about it.
    public var message: String
    /// The underlying error, if any (a `DecodingError`, a failed system call, another domain's error, …).
    public var cause: (any Error)?
    /// Where the input came from (a file path and entry, a type identifier, a step), if known.
    public var source: String?
    /// The byte offset in the input where the problem was found, if known.
    public var offset: Int?
    /// The facts only this domain records, such as the archive's item index and representation type.
    public var details: Domain.Details

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of problem this is.
    ///   - message: What went wrong and what to do about it.
    ///   - cause: The underlying error, if any.
    ///   - source: Where the input came from, if known.
    ///   - offset: The byte offset in the input, if known.
    ///   - details: The domain's own facts about where the problem was found.
    public init(
        code: Code, message: String, cause: (any Error)? = nil, source: String? = nil, offset: Int? = nil,
        details: Domain.Details = .init()
    ) {
        self.code = code
        self.message = message
        self.cause = cause
        self.source = source
        self.offset = offset
        self.details = details
    }

    /// A fact of the domain's ``details``, such as a `TransferArchiveError`'s `itemIndex`.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Domain.Details, Value>) -> Value {
        get { details[keyPath: keyPath] }
        set { details[keyPath: keyPath] = newValue }
    }

    /// `Domain.code: message (where) (cause: …)`, such as
    /// `TransferArchiveError.checksumMismatch: … (item 0, type public.png, byte offset 41)`.
    public var description: String {
        var text = "\(Domain.name).\(code): \(message)" + placeText(repeatingSource: true)
        if let cause { text += " (cause: \(cause))" }
        return text
    }

    /// The message and where the problem was found, without the domain's name, the code or the cause:
    /// `… (item 0, type public.png, byte offset 41)`, for lines that people read (the tool's messages). The
    /// ``source`` is left out when the message names it already.
    package var summary: String {
        message + placeText(repeatingSource: false)
    }

    /// ` (item 0, byte offset 41, in x.transferkit)`, or empty when nothing is known.
    private func placeText(repeatingSource: Bool) -> String {
        var place = details.locationPhrases
        if let offset { place.append("byte offset \(offset)") }
        if let source, repeatingSource || !message.contains(source) { place.append("in \(source)") }
        return place.isEmpty ? "" : " (" + place.joined(separator: ", ") + ")"
    }
}

/// A family of errors, such as the archive's or the type system's: its name and the facts it records.
public protocol ErrorDomain: Sendable {
    /// The facts only this domain records; ``NoErrorDetails`` for most.
    associatedtype Details: ErrorDetails = NoErrorDetails
    /// The name descriptions start with, such as `CBORError`.
    static var name: String { get }
}

extension ErrorDomain {
    /// The domain type's name without its `Domain` suffix: `CBORErrorDomain` is `CBORError`.
    public static var name: String {
        let typeName = String(describing: Self.self)
        return typeName.hasSuffix("Domain") ? String(typeName.dropLast("Domain".count)) : typeName
    }
}

/// Facts that one error domain records about where a problem was found.
public protocol ErrorDetails: Sendable {
    /// No facts known.
    init()
    /// The known facts as short phrases for descriptions, such as `item 2`; empty when none is known.
    var locationPhrases: [String] { get }
}

/// The details of a domain that records nothing beyond `DomainError.source` and `DomainError.offset`.
public struct NoErrorDetails: ErrorDetails, Hashable {
    /// Nothing.
    public init() {}
    /// Always empty.
    public var locationPhrases: [String] { [] }
}

/// A kind of problem within one error domain: compare it with `==` or `switch` over the domain's static members.
///
/// It is a struct rather than an enum, so that a library can add codes without breaking the `switch` statements
/// of its users.
public struct ErrorCode<Domain: ErrorDomain>: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, such as `checksumMismatch`.
    public let name: String

    /// Creates the code called `name`; each domain declares its codes as static members.
    package init(_ name: String) {
        self.name = name
    }

    /// The code's name.
    public var description: String { name }

    /// The operation was cancelled through its progress or its task. Every domain that runs long operations uses
    /// this one code.
    public static var cancelled: Self { Self("cancelled") }
}

/// A ``DomainError`` of any domain, for code that handles errors by their shared codes.
package protocol AnyDomainError: Error {
    /// The name of the error's code, such as `cancelled`.
    var codeName: String { get }
    /// The message and where the problem was found (``DomainError/summary``).
    var summary: String { get }
    /// The underlying error, if any.
    var cause: (any Error)? { get }
}

extension DomainError: AnyDomainError {
    /// The name of ``code``.
    package var codeName: String { code.name }
}

/// Whether `error` reports a cancellation: a `CancellationError`, or any domain's `cancelled` code.
package func isCancellation(_ error: any Error) -> Bool {
    error is CancellationError || (error as? any AnyDomainError)?.codeName == ErrorCode<NeverDomain>.cancelled.name
}

/// A domain with no errors of its own, for naming the codes every domain shares.
package enum NeverDomain: ErrorDomain {}
