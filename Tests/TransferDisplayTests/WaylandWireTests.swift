import Testing
import TransferKitPlatform

@testable import TransferDisplay

@Suite("Wayland wire codec", .timeLimit(.minutes(5)))
struct WaylandWireTests {
    /// Cuts `bytes` into frames and decodes each against a table where 4 is a data device and 5 a source.
    func decodeAll(_ bytes: [UInt8], fds: [Int32] = []) throws -> [WaylandEvent] {
        var table = WaylandObjectTable()
        _ = try table.create(.registry)  // 2
        _ = try table.create(.callback)  // 3
        _ = try table.create(.dataControlDevice)  // 4
        _ = try table.create(.dataControlSource)  // 5
        var buffer = FrameBuffer()
        buffer.append(bytes)
        var frames = WaylandFrames()
        var fds = fds
        var events: [WaylandEvent] = []
        while let frame = try frames.nextFrame(from: &buffer) {
            events.append(try table.decode(frame, fds: &fds).event)
        }
        return events
    }

    func encoded(_ message: WaylandMessage) throws -> [UInt8] {
        try WaylandWire.encode(message).bytes
    }

    func expectViolation(_ bytes: [UInt8], fds: [Int32] = []) {
        #expect {
            _ = try decodeAll(bytes, fds: fds)
        } throws: { error in
            // The frame decoder reports a bad header as a WireViolation (the connection ends with
            // protocolViolation); a bad body is the object table's ClipboardError.
            (error as? ClipboardError)?.code == .protocolViolation || error is WireViolation
        }
    }

    @Test func headerAndPaddedStringLayout() throws {
        let bytes = try encoded(WaylandMessage(objectID: 7, opcode: 3, arguments: [.string("abc"), .uint(9)]))
        // id, size 20 << 16 | opcode 3, length 4 ("abc\0"), "abc\0", 9 — native (little) endian.
        #expect(bytes == [7, 0, 0, 0, 3, 0, 20, 0, 4, 0, 0, 0, 97, 98, 99, 0, 9, 0, 0, 0])
        let padded = try encoded(WaylandMessage(objectID: 1, opcode: 0, arguments: [.string("abcd"), .string(nil)]))
        #expect(padded.count == 8 + 4 + 8 + 4)
    }

    @Test func eventsRoundTrip() throws {
        var bytes: [UInt8] = []
        bytes += try encoded(.init(objectID: 2, opcode: 0, arguments: [.uint(1), .string("wl_seat"), .uint(7)]))
        bytes += try encoded(.init(objectID: 4, opcode: 0, arguments: [.newID(0xff00_0000)]))
        bytes += try encoded(.init(objectID: 0xff00_0000, opcode: 0, arguments: [.string("image/png")]))
        bytes += try encoded(.init(objectID: 4, opcode: 3, arguments: [.object(0xff00_0000)]))
        bytes += try encoded(.init(objectID: 5, opcode: 0, arguments: [.string("text/plain"), .fd(42)]))
        bytes += try encoded(.init(objectID: 3, opcode: 0, arguments: [.uint(0)]))
        bytes += try encoded(.init(objectID: 1, opcode: 1, arguments: [.uint(3)]))
        let events = try decodeAll(bytes, fds: [42])
        #expect(
            events == [
                .global(name: 1, interface: "wl_seat", version: 7),
                .dataOffer(device: 4, offer: 0xff00_0000),
                .offerType(offer: 0xff00_0000, mimeType: "image/png"),
                .selection(device: 4, offer: 0xff00_0000, primary: true),
                .send(source: 5, mimeType: "text/plain", fd: 42),
                .done(callback: 3),
                .deleteID(3),
            ])
    }

    @Test func partialMessagesWaitForMoreBytes() throws {
        let bytes = try encoded(.init(objectID: 2, opcode: 0, arguments: [.uint(1), .string("wl_seat"), .uint(7)]))
        var buffer = FrameBuffer()
        var frames = WaylandFrames()
        for byte in bytes.dropLast() {
            buffer.append([byte])
            #expect(try frames.nextFrame(from: &buffer) == nil)
            #expect(buffer.count > 0, "a partial message is kept whole")
        }
        buffer.append([bytes[bytes.count - 1]])
        #expect(try frames.nextFrame(from: &buffer)?.objectID == 2)
        #expect(buffer.isEmpty)
    }

    @Test(arguments: [4, 12 + 2, 4100, 0xffff])
    func badSizesAreViolations(size: Int) {
        var header: [UInt8] = [2, 0, 0, 0, 0, 0, UInt8(size & 0xff), UInt8(size >> 8)]
        header += [UInt8](repeating: 0, count: 16)
        var buffer = FrameBuffer()
        buffer.append(header)
        var frames = WaylandFrames()
        // Refused from the header alone, before the body is waited for.
        #expect(throws: WireViolation.self) { _ = try frames.nextFrame(from: &buffer) }
    }

    @Test func malformedBodiesAreViolations() throws {
        // A string whose length runs past the body.
        expectViolation([5, 0, 0, 0, 0, 0, 16, 0, 200, 0, 0, 0, 97, 98, 99, 0])
        // A string without its NUL.
        expectViolation([0xff, 0, 0, 0xff, 0, 0, 16, 0, 4, 0, 0, 0, 97, 98, 99, 100])
        // Bytes left after the arguments.
        expectViolation(try encoded(.init(objectID: 1, opcode: 1, arguments: [.uint(3), .uint(4)])))
        // An unknown object, an unknown opcode.
        expectViolation(try encoded(.init(objectID: 99, opcode: 0, arguments: [.uint(3)])))
        expectViolation(try encoded(.init(objectID: 4, opcode: 9)))
        // A send without its descriptor.
        expectViolation(try encoded(.init(objectID: 5, opcode: 0, arguments: [.string("a"), .fd(1)])))
        // A data_offer outside the compositor's id range, a selection naming a non-offer.
        expectViolation(try encoded(.init(objectID: 4, opcode: 0, arguments: [.newID(9)])))
        expectViolation(try encoded(.init(objectID: 4, opcode: 1, arguments: [.object(5)])))
        // A null string where one is required, invalid UTF-8.
        expectViolation(try encoded(.init(objectID: 0xff00_0000, opcode: 0, arguments: [.string(nil)])))
        expectViolation(
            try encoded(.init(objectID: 2, opcode: 0, arguments: [.uint(1), .array([0xc3, 0x28, 0]), .uint(1)])))
    }

    @Test func aBrokenMessageLeavesItsDescriptorsUnclaimed() throws {
        // A send whose descriptor arrived but whose body has a word too many: the caller keeps the descriptor to
        // close it.
        var body = try encoded(.init(objectID: 5, opcode: 0, arguments: [.string("text/plain"), .uint(7)]))
        body = Array(body.dropFirst(8))
        var fds: [Int32] = [41, 42]
        #expect(throws: ClipboardError.self) {
            _ = try WaylandWire.decodeArguments(body[...], signature: [.string(nullable: false), .fd], fds: &fds)
        }
        #expect(fds == [41, 42])
        let whole = Array(try encoded(.init(objectID: 5, opcode: 0, arguments: [.string("text/plain")])).dropFirst(8))
        let arguments = try WaylandWire.decodeArguments(
            whole[...], signature: [.string(nullable: false), .fd], fds: &fds)
        #expect(arguments == [.string("text/plain"), .fd(41)])
        #expect(fds == [42])
    }

    @Test func tooLongRequestIsRefused() {
        #expect {
            _ = try WaylandWire.encode(
                .init(objectID: 5, opcode: 0, arguments: [.string(String(repeating: "a", count: 5000))]))
        } throws: { error in
            (error as? ClipboardError)?.code == .protocolViolation
        }
    }

    @Test func idsAreReusedAfterDeleteID() throws {
        var table = WaylandObjectTable()
        let first = try table.create(.callback)
        let second = try table.create(.callback)
        #expect((first, second) == (2, 3))
        table.destroy(first)
        #expect(table.object(first)?.live == false)
        table.delete(first)
        #expect(table.object(first) == nil)
        #expect(try table.create(.seat) == first)
        #expect(try table.create(.seat) == 4)
    }

    @Test func deleteIDFreesOnlyWhatThisClientDestroyed() throws {
        var table = WaylandObjectTable()
        let live = try table.create(.dataControlDevice)  // 2
        table.delete(live)  // a delete_id for a live object changes nothing
        #expect(table.object(live)?.live == true)
        #expect(try table.create(.callback) == 3)
        table.destroy(3)
        table.delete(3)
        table.delete(3)  // twice: freed once
        #expect(try table.create(.callback) == 3)
        #expect(try table.create(.callback) == 4)
        table.delete(1)  // wl_display is never freed
        #expect(table.object(1)?.live == true)
    }

    @Test func destroyedOffersStayKnownUntilReusedOrPushedOut() throws {
        var table = WaylandObjectTable()
        let first = WaylandObjectTable.serverRangeStart
        try table.insertServerObject(first, .dataControlOffer)
        #expect(throws: ClipboardError.self) { try table.insertServerObject(first, .dataControlOffer) }
        table.destroy(first)
        #expect(table.object(first)?.live == false, "events in flight to it decode as not live")
        try table.insertServerObject(first, .dataControlOffer)  // the compositor reuses the id
        #expect(table.object(first)?.live == true)
        table.destroy(first)
        let limit = UInt32(WaylandObjectTable.maximumDestroyedServerObjects)
        for index in 1...limit {
            try table.insertServerObject(first + index, .dataControlOffer)
            table.destroy(first + index)
        }
        #expect(table.object(first) == nil, "the oldest destroyed offer is forgotten")
        #expect(table.count == 1 + Int(limit))
    }
}
