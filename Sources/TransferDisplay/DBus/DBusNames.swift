/// The syntax of D-Bus names and paths, and the header fields each kind of message requires (D-Bus Specification,
/// "Valid Names" and "Header Fields").
enum DBusNames {
    /// The longest bus, interface, member or error name, in bytes.
    static let maximumNameLength = 255

    /// Text must not hold NUL (it ends strings on the wire).
    static func checkText(_ text: String) throws(ClipboardError) {
        if text.utf8.contains(0) { throw DBusWire.violation("text holds a NUL byte") }
    }

    /// `/`, or `/` followed by elements of `[A-Za-z0-9_]` separated by single `/`, without a trailing one.
    static func checkObjectPath(_ path: String) throws(ClipboardError) {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { throw invalid("object path", path) }
        if bytes.count == 1 { return }
        for element in bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard !element.isEmpty, element.allSatisfy(isNameByte) else { throw invalid("object path", path) }
        }
    }

    /// Two or more elements of `[A-Za-z_][A-Za-z0-9_]*` separated by dots (interfaces and error names).
    static func checkInterface(_ name: String, what: String = "interface name") throws(ClipboardError) {
        let elements = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard name.utf8.count <= maximumNameLength, elements.count >= 2,
            elements.allSatisfy({ element in
                guard let first = element.first, !isDigit(first) else { return false }
                return element.allSatisfy(isNameByte)
            })
        else { throw invalid(what, name) }
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`.
    static func checkMember(_ name: String) throws(ClipboardError) {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, !isDigit(first), bytes.count <= maximumNameLength, bytes.allSatisfy(isNameByte)
        else { throw invalid("member name", name) }
    }

    /// A unique name (`:1.42`) or a well-known one (`org.freedesktop.portal.Documents`).
    static func checkBusName(_ name: String) throws(ClipboardError) {
        var bytes = Array(name.utf8)
        let unique = bytes.first == UInt8(ascii: ":")
        if unique { bytes.removeFirst() }
        let elements = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard name.utf8.count <= maximumNameLength, elements.count >= 2,
            elements.allSatisfy({ element in
                guard let first = element.first, unique || !isDigit(first) else { return false }
                return element.allSatisfy { isNameByte($0) || $0 == UInt8(ascii: "-") }
            })
        else { throw invalid("bus name", name) }
    }

    /// The names in `message`'s header, and the fields its kind requires.
    static func check(_ message: DBusMessage) throws(ClipboardError) {
        if let path = message.path { try checkObjectPath(path) }
        if let interface = message.interface { try checkInterface(interface) }
        if let member = message.member { try checkMember(member) }
        if let errorName = message.errorName { try checkInterface(errorName, what: "error name") }
        if let destination = message.destination { try checkBusName(destination) }
        if let sender = message.sender { try checkBusName(sender) }
        let missing: String?
        switch message.kind {
        case .methodCall: missing = message.path == nil ? "path" : message.member == nil ? "member" : nil
        case .methodReturn: missing = message.replySerial == nil ? "reply serial" : nil
        case .error:
            missing = message.errorName == nil ? "error name" : message.replySerial == nil ? "reply serial" : nil
        case .signal:
            missing =
                message.path == nil
                ? "path" : message.interface == nil ? "interface" : message.member == nil ? "member" : nil
        }
        if let missing {
            throw DBusWire.violation("a \(message.kind) message has no \(missing) header field")
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func invalid(_ what: String, _ name: String) -> ClipboardError {
        DBusWire.violation("\(String(reflecting: String(name.prefix(64)))) is not a valid \(what)")
    }
}
