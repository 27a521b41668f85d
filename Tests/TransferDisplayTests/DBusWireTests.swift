import Testing
import TransferKitPlatform
import TransferKitTestSupport

@testable import TransferDisplay

/// Messages GLib's GDBus wrote (`Gio.DBusMessage.to_blob`, python3-gi, Debian 12): an independent implementation's
/// bytes, in both byte orders.
private enum GDBusBlobs {
    static let signalLittle = hex(
        "6c040101880000002a0000007000000001016f00100000002f6f72672f6578616d706c652f4f626a000000000000000002017300110000006f72672e6578616d706c652e496661636500000000000000080167001679626e716975787464736f6761762869617b73767d29000000000003017300070000004368616e67656400ff00000001000000fefffffff9ffffff00286bee0000000000e68ee7fdffffff000008c5a1d8ccf9000000000000f83f0600000068c3a96c6c6f0000060000002f612f625f630005617b73767d00000016000000017300000100000078000261790000000200000000010000000000000300000010000000010000006b0001750000000009000000"
    )
    static let signalBig = hex(
        "42040101000000880000002a0000007001016f00000000102f6f72672f6578616d706c652f4f626a000000000000000002017300000000116f72672e6578616d706c652e496661636500000000000000080167001679626e716975787464736f6761762869617b73767d29000000000003017300000000074368616e67656400ff00000000000001fffefffffffffff9ee6b280000000000fffffffde78ee600f9ccd8a1c50800003ff80000000000000000000668c3a96c6c6f0000000000062f612f625f630005617b73767d00000000000016017300000000000178000261790000000000000200010000000000000000000300000010000000016b0001750000000000000009"
    )
    static let errorBig = hex(
        "4203010100000013000000090000004804017300000000286f72672e667265656465736b746f702e444275732e4572726f722e556e6b6e6f776e4d6574686f640000000000000000080167000173000005017500000000050000000e4e6f2073756368206d6574686f6400"
    )

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    /// The body GDBus was given for both signals.
    static let signalBody: [DBusValue] = [
        .byte(255), .boolean(true), .int16(-2), .uint16(65535), .int32(-7), .uint32(4_000_000_000),
        .int64(-9_000_000_000), .uint64(18_000_000_000_000_000_000), .double(1.5), .string("héllo"),
        .objectPath("/a/b_c"), .signature("a{sv}"),
        .array(element: .variant, [.variant(.string("x")), .variant(.array(element: .byte, [.byte(0), .byte(1)]))]),
        .structure([.int32(3), .options([("k", .uint32(9))])]),
    ]
}

private func decode(_ bytes: [UInt8], descriptors: Int = 0) throws -> DBusMessage? {
    try DBusWire.decode(bytes, descriptorCount: descriptors)
}

/// The error a decode throws (its code), or `nil`.
private func failure(_ bytes: [UInt8], descriptors: Int = 0) -> ClipboardError? {
    do {
        _ = try DBusWire.decode(bytes, descriptorCount: descriptors)
        return nil
    } catch {
        return error
    }
}

@Suite("The D-Bus wire: marshalling, messages and limits")
struct DBusWireTests {
    @Test("GDBus's messages decode in both byte orders to the values it was given")
    func decodesGDBus() throws {
        for blob in [GDBusBlobs.signalLittle, GDBusBlobs.signalBig] {
            let message = try #require(try decode(blob))
            #expect(message.kind == .signal && message.serial == 42)
            #expect(message.path == "/org/example/Obj" && message.interface == "org.example.Iface")
            #expect(message.member == "Changed")
            #expect(message.body == GDBusBlobs.signalBody)
            #expect(message.signature == "ybnqiuxtdsogav(ia{sv})")
        }
        let error = try #require(try decode(GDBusBlobs.errorBig))
        #expect(error.kind == .error && error.replySerial == 5)
        #expect(error.errorName == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(error.errorMessage == "No such method")
    }

    @Test("a message encodes to GDBus's body bytes and reads back equal")
    func encodesLikeGDBus() throws {
        var message = DBusMessage(kind: .signal, serial: 42)
        message.path = "/org/example/Obj"
        message.interface = "org.example.Iface"
        message.member = "Changed"
        message.body = GDBusBlobs.signalBody
        let bytes = try DBusWire.encode(message)
        #expect(bytes.first == UInt8(ascii: "l"))
        #expect(try DBusWire.messageLength(header: bytes[...]) == bytes.count)
        #expect(try decode(bytes) == message)
        // The header fields' order is the writer's choice; the body's bytes are the format's alone.
        let bodyLength = 0x88
        #expect(Array(bytes.suffix(bodyLength)) == Array(GDBusBlobs.signalLittle.suffix(bodyLength)))
    }

    @Test("signatures: what the specification allows and what it forbids")
    func signatures() throws {
        #expect(try DBusType.types(of: "a{sv}ay(ii)v").map(\.description) == ["a{sv}", "ay", "(ii)", "v"])
        #expect(try DBusType.types(of: "").isEmpty)
        let deepArrays = String(repeating: "a", count: 32) + "y"
        #expect(try DBusType.types(of: deepArrays).count == 1)
        let forbidden = [
            "a", "(", "(i", "()", "{sv}", "a{vs}", "a{sss}", "a{s}", "z", String(repeating: "a", count: 33) + "y",
            String(repeating: "(", count: 33) + "y" + String(repeating: ")", count: 33),
            String(repeating: "y", count: 256), "a{s", "i)",
        ]
        for signature in forbidden {
            #expect(throws: ClipboardError.self, "\(signature)") { _ = try DBusType.types(of: signature) }
        }
    }

    @Test("every marshalling rule a hostile peer could break is a protocol violation")
    func hostileBodies() throws {
        var message = DBusMessage(kind: .methodReturn, serial: 2)
        message.replySerial = 1
        message.body = [.boolean(true), .string("ab")]
        let good = try DBusWire.encode(message)
        let bodyStart = good.count - 11  // b (4) + u32 length (4) + "ab" + NUL
        var boolean = good
        boolean[bodyStart] = 2
        #expect(failure(boolean)?.code == .protocolViolation)
        var noNul = good
        noNul[good.count - 1] = UInt8(ascii: "c")
        #expect(failure(noNul)?.code == .protocolViolation)
        var notUTF8 = good
        notUTF8[good.count - 3] = 0xff
        #expect(failure(notUTF8)?.code == .protocolViolation)
        var longString = good
        longString[bodyStart + 4] = 9
        #expect(failure(longString)?.code == .protocolViolation)
        var cut = good
        cut.removeLast()
        #expect(failure(cut)?.code == .protocolViolation)
        var zeroSerial = good
        zeroSerial.replaceSubrange(8..<12, with: [0, 0, 0, 0])
        #expect(failure(zeroSerial)?.code == .protocolViolation)
        var version = good
        version[3] = 2
        #expect(failure(version)?.code == .protocolViolation)
        var unknownKind = good
        unknownKind[1] = 9
        #expect(try decode(unknownKind) == nil)
    }

    @Test("padding must be zero")
    func nonZeroPadding() throws {
        var message = DBusMessage(kind: .methodReturn, serial: 2)
        message.replySerial = 1
        message.body = [.byte(1), .uint32(7)]
        var bytes = try DBusWire.encode(message)
        bytes[bytes.count - 5] = 1  // the padding after the byte
        #expect(failure(bytes)?.code == .protocolViolation)
    }

    @Test("a descriptor index must name a descriptor that came with the message")
    func descriptorIndex() throws {
        var message = DBusMessage(kind: .methodReturn, serial: 2)
        message.replySerial = 1
        message.unixFDCount = 1
        message.body = [.unixFD(0)]
        let bytes = try DBusWire.encode(message)
        #expect(try decode(bytes, descriptors: 1)?.body == [.unixFD(0)])
        #expect(failure(bytes, descriptors: 0)?.code == .protocolViolation)
        message.body = [.unixFD(1)]
        #expect(failure(try DBusWire.encode(message), descriptors: 1)?.code == .protocolViolation)
    }

    @Test("variants nest at most 64 containers deep")
    func variantDepth() throws {
        func nested(_ depth: Int) -> DBusValue {
            (0..<depth).reduce(DBusValue.byte(1)) { inner, _ in .variant(inner) }
        }
        var message = DBusMessage(kind: .methodReturn, serial: 2)
        message.replySerial = 1
        message.body = [nested(64)]
        #expect(try decode(try DBusWire.encode(message))?.body == [nested(64)])
        message.body = [nested(65)]
        #expect(failure(try DBusWire.encode(message))?.code == .protocolViolation)
    }

    @Test("required header fields and names are checked both ways")
    func headerRules() throws {
        #expect(throws: ClipboardError.self) {
            _ = try DBusWire.encode(DBusMessage(kind: .methodCall, serial: 1))
        }
        for bad in [
            DBusMessage.call(destination: "org..x", path: "/a", interface: nil, member: "M"),
            DBusMessage.call(destination: nil, path: "/a/", interface: nil, member: "M"),
            DBusMessage.call(destination: nil, path: "/a", interface: "single", member: "M"),
            DBusMessage.call(destination: nil, path: "/a", interface: nil, member: "1M"),
        ] {
            #expect(throws: ClipboardError.self) { _ = try DBusWire.encode(bad) }
        }
        let unique = DBusMessage.call(destination: ":1.42", path: "/", interface: nil, member: "Ping")
        #expect(try decode(try DBusWire.encode(unique)) == unique)
    }

    @Test("a message that announces more than 128 MiB is refused from its first 16 bytes")
    func messageSizeLimit() throws {
        var header: [UInt8] = [UInt8(ascii: "l"), 1, 0, 1]
        header += [0, 0, 0, 0x08]  // body length 128 MiB
        header += [1, 0, 0, 0]
        header += [0x10, 0, 0, 0]
        #expect(throws: ClipboardError.self) { _ = try DBusWire.messageLength(header: header[...]) }
        do {
            _ = try DBusWire.messageLength(header: header[...])
        } catch {
            #expect(error.code == .limitExceeded)
        }
    }

    @Test("an array's elements must end exactly where its length says")
    func arrayLength() throws {
        var message = DBusMessage(kind: .methodReturn, serial: 2)
        message.replySerial = 1
        message.body = [.array(element: .uint32, [.uint32(1), .uint32(2)])]
        var bytes = try DBusWire.encode(message)
        let lengthAt = bytes.count - 12
        bytes[lengthAt] = 6  // 6 bytes: the second element would cross the end
        #expect(failure(bytes)?.code == .protocolViolation)
        message.body = [.array(element: .uint32, [.string("x")])]
        #expect(throws: ClipboardError.self) { _ = try DBusWire.encode(message) }
    }
}

@Suite("D-Bus authentication and addresses")
struct DBusAuthenticationTests {
    @Test("the conversation of a server that agrees to descriptor passing")
    func agreeing() {
        var machine = DBusAuthenticationMachine(userID: 1000)
        guard case .send(let auth)? = machine.handle(.begin).first else {
            Issue.record("no AUTH")
            return
        }
        #expect(auth == [0] + Array("AUTH EXTERNAL 31303030\r\n".utf8))
        guard case .send(let negotiate)? = machine.handle(.line("OK 1234deadbeef")).first else {
            Issue.record("no NEGOTIATE_UNIX_FD")
            return
        }
        #expect(negotiate == Array("NEGOTIATE_UNIX_FD\r\n".utf8))
        let actions = machine.handle(.line("AGREE_UNIX_FD"))
        guard actions.count == 2, case .send(let begin) = actions[0],
            case .authenticated(let guid, let fds) = actions[1]
        else {
            Issue.record("\(actions)")
            return
        }
        #expect(begin == Array("BEGIN\r\n".utf8) && guid == "1234deadbeef" && fds)
    }

    @Test("every phase × event: failures are typed, nothing is sent after a failure or after BEGIN")
    func table() {
        let events: [DBusAuthenticationMachine.Event] = [
            .begin, .line("OK abc"), .line("REJECTED EXTERNAL"), .line("DATA"), .line("ERROR nope"),
            .line("AGREE_UNIX_FD"), .line("garbage"), .ended(.timedOut), .ended(.connectionFailed),
        ]
        let phases: [(String, [DBusAuthenticationMachine.Event])] = [
            ("start", []), ("awaitingOK", [.begin]), ("awaitingUnixFDAnswer", [.begin, .line("OK abc")]),
            ("authenticated", [.begin, .line("OK abc"), .line("AGREE_UNIX_FD")]),
            ("failed", [.begin, .line("REJECTED EXTERNAL")]),
        ]
        walkEveryPhaseAndEvent(from: DBusAuthenticationMachine(userID: 0), phases: phases, events: events) { cell in
            let failures = cell.actions.compactMap { action -> ClipboardError? in
                if case .fail(let error) = action { return error }
                return nil
            }
            if cell.before.phase == .failed {
                #expect(cell.actions.isEmpty, "\(cell.label)")
            }
            if !failures.isEmpty {
                #expect(cell.after.phase == .failed, "\(cell.label)")
            }
            if case .ended(let code) = cell.event, cell.before.phase == .awaitingOK {
                #expect(failures.map(\.code) == [code], "\(cell.label)")
            }
            if case .line("REJECTED EXTERNAL") = cell.event, cell.before.phase == .awaitingOK {
                #expect(failures.map(\.code) == [.connectionFailed], "\(cell.label)")
            }
            if cell.before.phase == .authenticated, case .line = cell.event {
                #expect(failures.map(\.code) == [.protocolViolation], "\(cell.label)")
            }
        }
    }

    @Test("addresses: unix paths and abstract names, percent-decoded; the session bus from the environment")
    func addresses() throws {
        let names = DBusConnection.socketNames(
            in: "tcp:host=x,port=1;unix:abstract=/tmp/dbus-A,guid=1;unix:path=/run/user/1000/b%20us")
        #expect(names.map(\.path) == ["/tmp/dbus-A", "/run/user/1000/b us"])
        #expect(names.map(\.abstract) == [true, false])
        #expect(
            try DBusConnection.sessionBusAddress(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"])
                == "unix:path=/x")
        let error = #expect(throws: ClipboardError.self) {
            _ = try DBusConnection.sessionBusAddress(environment: ["XDG_RUNTIME_DIR": "/nonexistent-folder"])
        }
        #expect(error?.code == .protocolUnavailable)
    }
}

@Suite("D-Bus frames: the reader's cut of the byte stream into messages")
struct DBusFramesTests {
    /// `bytes` given to a decoder in pieces of `piece` bytes: the messages it cut, in order.
    static func frames(of bytes: [UInt8], piece: Int) throws -> [[UInt8]] {
        var decoder = DBusFrames()
        var buffer = FrameBuffer()
        var frames: [[UInt8]] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            buffer.append(rest.prefix(piece))
            rest = rest.dropFirst(piece)
            while let frame = try decoder.nextFrame(from: &buffer) { frames.append(frame) }
        }
        #expect(buffer.isEmpty)
        return frames
    }

    @Test("messages arriving in any pieces come out whole, one frame each", arguments: [1, 7, 16, 4096])
    func wholeMessages(piece: Int) throws {
        let first = try DBusWire.encode(GDBusBlobsForFrames.call(serial: 1))
        let second = try DBusWire.encode(GDBusBlobsForFrames.call(serial: 2, member: "GetNameOwner"))
        #expect(try Self.frames(of: first + second + first, piece: piece) == [first, second, first])
    }

    @Test("a header that breaks the protocol or announces too much ends the connection with the wire's own error")
    func badHeaders() throws {
        var decoder = DBusFrames()
        var buffer = FrameBuffer()
        buffer.append([UInt8(ascii: "x"), 1, 0, 1] + [UInt8](repeating: 0, count: 12))
        let violation = #expect(throws: WireViolation.self) { _ = try decoder.nextFrame(from: &buffer) }
        #expect((violation?.cause as? ClipboardError)?.code == .protocolViolation)

        var huge = FrameBuffer()
        huge.append([UInt8(ascii: "l"), 1, 0, 1, 0, 0, 0, 0x08, 1, 0, 0, 0, 0x10, 0, 0, 0])
        let tooLarge = #expect(throws: WireViolation.self) { _ = try decoder.nextFrame(from: &huge) }
        #expect((tooLarge?.cause as? ClipboardError)?.code == .limitExceeded)
    }
}

/// Method calls for the frame tests.
private enum GDBusBlobsForFrames {
    static func call(serial: UInt32, member: String = "GetId") -> DBusMessage {
        var message = DBusMessage.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: member, body: [.string("a body of some length")])
        message.serial = serial
        return message
    }
}
