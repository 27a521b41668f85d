import Foundation
import Testing

@testable import UniformTypes

/// Paths of the hand-written mime directories under `Resources/mime`.
enum MIMEDatabaseFixtures {
    static func directory(_ name: String) throws -> String {
        let resources = try #require(Bundle.module.url(forResource: "Resources", withExtension: nil))
        return resources.appendingPathComponent("mime").appendingPathComponent(name).path
    }

    /// `high` (higher precedence) over `low`.
    static func layered() throws -> MIMEDatabase {
        MIMEDatabase(directories: [try directory("high"), try directory("low")])
    }
}
