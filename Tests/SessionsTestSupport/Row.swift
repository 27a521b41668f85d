public import Foundation
public import TransferKit
import TransferKitTestSupport
public import UniformTypes

extension UniformType {
    /// The type of ``Row``: JSON with an identifier of its own.
    public static let sessionTestRow = UniformType(exportedAs: "com.example.sessions.row", conformingTo: .json)
}

/// A list row as the seeds have them: an identity, a title and a stored order.
public struct Row: TransferCodable, Identifiable, Hashable, CustomStringConvertible {
    /// The row's identity.
    public var id: String
    /// The row's text.
    public var title: String
    /// The row's stored position, for the stored lists' tests.
    public var order: Int = 0

    /// Makes a row.
    public init(id: String, title: String, order: Int = 0) {
        self.id = id
        self.title = title
        self.order = order
    }

    /// The row's uniform type.
    public static var contentType: UniformType { .sessionTestRow }

    /// The row's identity, which is what a failed expectation should show.
    public var description: String { id }
}

/// A row that fails to decode when its title says so, for drops that fail while loading.
extension Row {
    /// A provider of `row` as JSON; a row titled "undecodable" gives bytes that are not JSON.
    public static func provider(for row: Row) -> TransferProvider {
        let provider = TransferProvider()
        _ = provider.registerDataRepresentation(for: .sessionTestRow, visibility: .all) { _ in
            if row.title == "undecodable" {
                return Data("not json".utf8)
            }
            return try JSONEncoder().encode(row)
        }
        return provider
    }
}

/// The time limit of the sessions with real processes (the integration targets' hostile peers), which run on the
/// machine's clock.
///
/// Above the library's default of 30 seconds: the whole test run shares two threads, and under the thread
/// sanitizer a test's task can wait behind hundreds of others for longer than that while the limit's timer runs.
/// The unit tests take ``unhurried`` instead.
public let patience: Duration = .seconds(60)

/// A socket path in a fresh temporary directory, and the directory to remove.
public func socketPath() throws -> (path: String, directory: URL) {
    let directory = try makeTemporaryDirectory(prefix: "tk-sess")
    return (directory.appendingPathComponent("s").path, directory)
}
