import Foundation
import Testing
import TransferKitPlatform
import TransferKitTestSupport
import UniformTypes

@testable import TransferDisplay

@Suite("X11 wire codec, DISPLAY and Xauthority", .timeLimit(.minutes(5)))
struct X11WireTests {
    @Test(
        "DISPLAY names a local socket",
        arguments: [
            (":0", 0, "/tmp/.X11-unix/X0"), (":12.1", 12, "/tmp/.X11-unix/X12"), ("unix:3", 3, "/tmp/.X11-unix/X3"),
            ("/run/x/sock:5.0", 5, "/run/x/sock"),
        ])
    func displayNames(name: String, number: Int, path: String) throws {
        let display = try X11Display(parsing: name)
        #expect(display.number == number)
        #expect(display.socketPath == path)
        // The standard socket also has its abstract name (a path of one's own has none).
        #expect(display.abstractName == (path.hasPrefix("/tmp/.X11-unix/") ? path : nil))
    }

    @Test(
        "A remote or malformed DISPLAY is connectionFailed",
        arguments: ["example.com:0", "localhost:1", ":x", "0", ":1.y"])
    func badDisplays(name: String) {
        let error = #expect(throws: ClipboardError.self) { _ = try X11Display(parsing: name) }
        #expect(error?.code == .connectionFailed)
    }

    @Test("An empty DISPLAY is noDisplay")
    func emptyDisplay() {
        let error = #expect(throws: ClipboardError.self) { _ = try X11Display(parsing: "") }
        #expect(error?.code == .noDisplay)
    }

    static func entry(_ family: UInt16, _ address: String, _ number: String, _ name: String, _ data: [UInt8]) -> [UInt8]
    {
        X11AuthorityEntry(family: family, address: Array(address.utf8), number: number, name: name, data: data).encoded
    }

    @Test("The cookie for this host and display is chosen; a truncated entry is ignored")
    func authority() {
        let bytes =
            Self.entry(256, "other", "0", "MIT-MAGIC-COOKIE-1", [1])
            + Self.entry(256, "vm", "1", "MIT-MAGIC-COOKIE-1", [2])
            + Self.entry(256, "vm", "0", "XDM-AUTHORIZATION-1", [3])
            + Self.entry(256, "vm", "0", "MIT-MAGIC-COOKIE-1", [4])
            + Self.entry(65535, "", "", "MIT-MAGIC-COOKIE-1", [5]) + [0, 1, 0, 9, 1]
        let entries = X11AuthorityEntry.parse(bytes)
        #expect(entries.count == 5)
        #expect(entries.map(\.encoded).joined().elementsEqual(bytes.dropLast(5)))
        #expect(X11AuthorityEntry.cookie(in: entries, display: 0, hostname: "vm")?.data == [4])
        #expect(X11AuthorityEntry.cookie(in: entries, display: 1, hostname: "vm")?.data == [2])
        #expect(X11AuthorityEntry.cookie(in: entries, display: 7, hostname: "vm")?.data == [5])
    }

    @Test("The Xauthority file that XAUTHORITY names gives this host's cookie; a missing file or a FIFO gives none")
    func authorityFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = try #require(Syscall.hostName())
        let path = directory.appendingPathComponent("Xauthority").path
        let bytes =
            Self.entry(256, "other", "3", "MIT-MAGIC-COOKIE-1", [1])
            + Self.entry(256, host, "3", "MIT-MAGIC-COOKIE-1", [7])
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(X11AuthorityEntry.cookie(environment: ["XAUTHORITY": path], display: 3)?.data == [7])
        #expect(X11AuthorityEntry.cookie(environment: ["XAUTHORITY": path], display: 4) == nil)
        // HOME's .Xauthority when XAUTHORITY is empty or unset.
        try Data(bytes).write(to: directory.appendingPathComponent(".Xauthority"))
        let home = ["XAUTHORITY": "", "HOME": directory.path]
        #expect(X11AuthorityEntry.cookie(environment: home, display: 3)?.data == [7])
        #expect(X11AuthorityEntry.cookie(environment: ["XAUTHORITY": path + ".missing"], display: 3) == nil)
        // A FIFO in the file's place is refused at once instead of waiting for a writer.
        let fifo = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(X11AuthorityEntry.cookie(environment: ["XAUTHORITY": fifo], display: 3) == nil)
    }

    @Test("Requests carry their length in 4-byte units")
    func requestLengths() {
        let intern = X11RequestEncoder.internAtom("CLIPBOARD")
        #expect(intern.count == 20)
        #expect(intern[0] == 16 && intern[2] == 5 && intern[3] == 0)
        let property = X11RequestEncoder.changeProperty(1, property: 2, type: 3, format: 8, data: [1, 2, 3, 4, 5])
        #expect(property.count == 32)
        #expect(property[2] == 8)
        #expect(
            X11RequestEncoder.setup(
                authorizationName: Array("MIT-MAGIC-COOKIE-1".utf8), authorizationData: [UInt8](repeating: 9, count: 16)
            ).count == 48)
    }

    /// Every frame `decoder` cuts from `buffer` now.
    static func frames(_ decoder: inout X11Frames, _ buffer: inout FrameBuffer) throws -> [X11Frame] {
        var frames: [X11Frame] = []
        while let frame = try decoder.nextFrame(from: &buffer) { frames.append(frame) }
        return frames
    }

    @Test("Messages are cut across reads; an event, then a reply in two pieces")
    func decoderCutsMessages() throws {
        var decoder = X11Frames(expectsSetup: false)
        var buffer = FrameBuffer()
        var event = [UInt8](repeating: 0, count: 32)
        event[0] = X11.EventCode.selectionClear | 0x80
        event[4] = 9
        event[12] = 1
        var reply = [UInt8](repeating: 0, count: 40)
        reply[0] = 1
        reply[2] = 7
        reply[4] = 2
        buffer.append(event + reply.prefix(20))
        let first = try Self.frames(&decoder, &buffer)
        #expect(first == [.message(X11Bytes(event))])
        #expect(
            X11Message(decoding: X11Bytes(event), xfixesFirstEvent: nil)
                == .event(.selectionClear(time: 9, owner: 0, selection: 1)))
        #expect(buffer.count == 20)
        buffer.append(reply.dropFirst(20))
        let second = try Self.frames(&decoder, &buffer)
        #expect(second == [.message(X11Bytes(reply))])
        #expect(X11Message(decoding: X11Bytes(reply), xfixesFirstEvent: nil) == .reply(sequence: 7, X11Bytes(reply)))
        #expect(buffer.isEmpty)
    }

    @Test("The setup reply is the first frame, cut by its own length; messages follow")
    func setupThenMessages() throws {
        var decoder = X11Frames()
        var buffer = FrameBuffer()
        let event = [UInt8](repeating: 0, count: 31) + [0]
        buffer.append(FakeXServer.setupReply.prefix(10))
        #expect(try Self.frames(&decoder, &buffer).isEmpty)
        buffer.append(FakeXServer.setupReply.dropFirst(10) + event)
        let frames = try Self.frames(&decoder, &buffer)
        #expect(frames.count == 2)
        guard case .setup(.success(let info)) = frames.first else {
            Issue.record("not a setup reply: \(frames)")
            return
        }
        #expect(info.rootWindow == 0x100)
        #expect(frames.last == .message(X11Bytes(event)))
    }

    @Test("A malformed setup reply is a wire violation caused by an X11WireError")
    func malformedSetupFrame() {
        var decoder = X11Frames()
        var buffer = FrameBuffer()
        buffer.append([7, 0, 0, 0, 0, 0, 0, 0])
        let violation = #expect(throws: WireViolation.self) { _ = try decoder.nextFrame(from: &buffer) }
        #expect(violation?.cause is X11WireError)
    }

    @Test("A reply length over the limit throws before allocating")
    func decoderLimit() {
        var decoder = X11Frames(limit: 1024, expectsSetup: false)
        var buffer = FrameBuffer()
        buffer.append([1, 0, 1, 0, 0x00, 0x01, 0, 0] + [UInt8](repeating: 0, count: 24))
        let violation = #expect(throws: WireViolation.self) { _ = try decoder.nextFrame(from: &buffer) }
        #expect(violation?.cause is X11WireError)
        #expect(buffer.count == 32, "nothing was taken")
    }

    @Test("A property value longer than its reply is refused")
    func propertyBounds() {
        var reply = [UInt8](repeating: 0, count: 32)
        reply[0] = 1
        reply[1] = 8
        reply[16] = 100
        #expect(throws: X11WireError.self) { _ = try X11Reply.property(X11Bytes(reply)) }
    }

    @Test("The setup reply of the fake server parses")
    func setupReply() throws {
        guard case .success(let info) = try X11SetupReply(parsing: FakeXServer.setupReply) else {
            Issue.record("not a success")
            return
        }
        #expect(info.rootWindow == 0x100)
        #expect(info.maximumRequestBytes == 0xFFFF * 4)
        #expect(info.vendor == "fake")
    }
}

@Suite("X11 fuzz seeds", .timeLimit(.minutes(5)))
struct X11SeedTests {
    @Test("The fuzzer's seeds hold a setup reply like Xvfb's, and messages that decode whole")
    func seeds() throws {
        let bytes = try [UInt8](Data(contentsOf: repositoryFile("Fuzz/X11WireFuzzer/corpus/read-text")))
        let stream = Array(bytes.dropFirst(2))
        let total = try X11SetupReply.totalLength(header: Array(stream.prefix(8)))
        guard case .success(let info) = try X11SetupReply(parsing: Array(stream.prefix(total))) else {
            Issue.record("the seed's setup reply is not a success")
            return
        }
        #expect(info.rootWindow == 0x3B7)
        #expect(info.vendor == "The X.Org Foundation")
        var decoder = X11Frames(expectsSetup: false)
        var buffer = FrameBuffer()
        buffer.append(stream.dropFirst(total))
        let messages = try X11WireTests.frames(&decoder, &buffer)
        #expect(messages.count == 5)
        #expect(buffer.isEmpty)
    }
}
