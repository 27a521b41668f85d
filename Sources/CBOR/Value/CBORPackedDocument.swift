/// A decoded document held as its own encoded bytes and an index of where each item starts: what
/// ``CBORValue/init(decoding:limits:requireDeterministic:)`` returns arrays and maps over, so that a decoded tree
/// costs a few bytes per item rather than a `CBORValue` (24 bytes) per item and a heap block per collection.
///
/// The index is one array of 32-bit slots. A slot names one item: either the byte offset of its head (integers,
/// strings, simple values and floats, which are read again when asked for), or, with ``blockFlag`` set, the index of
/// the item's block. An array, map or tag has a block: `[offset of its head, child slot count, child slots…]`, a
/// map's children being key, value, key, value. Slot 0 is the root's. The blocks of a definite-length collection's
/// children follow its own, in the order the children are read, so one pass lays them out; the child counts of
/// indefinite-length collections come from the check before it.
///
/// The bytes were checked whole before the index was laid out (``CBORReader/ItemMode/check``), and neither ever
/// changes, so reading an item again cannot fail; the fallbacks below (`.undefined`) only keep that from trapping.
final class CBORPackedDocument: Sendable {
    /// Set in a slot that holds a block's index rather than an item's byte offset.
    static let blockFlag: UInt32 = 1 << 31

    /// The encoded document, shared with the caller's array, not copied.
    let bytes: [UInt8]
    /// The index; see the type's summary.
    let slots: [UInt32]

    /// What the check counts for the layout: the slots it needs and the child slot counts of indefinite-length
    /// collections, in the order their heads come (the order the layout meets them in).
    struct Tally {
        var slotCount = 0
        var indefiniteChildSlots: [UInt32] = []

        /// Counts one item: a slot of its own, and the two leading slots of a block for an array, map or tag.
        mutating func count(_ head: CBORHead) {
            switch head.majorType {
            case .array, .map, .tag: slotCount += 3
            default: slotCount += 1
            }
        }

        /// Keeps the place of an indefinite-length collection whose head was just read; `close` fills it in.
        mutating func open() -> Int {
            indefiniteChildSlots.append(0)
            return indefiniteChildSlots.count - 1
        }

        /// Records the child slot count of the collection `open` gave `place` for (nothing for `nil`).
        mutating func close(_ place: Int?, childSlots: Int) {
            guard let place else { return }
            // Beyond 32 bits the layout refuses the document anyway (`init?` below).
            indefiniteChildSlots[place] = UInt32(clamping: childSlots)
        }
    }

    /// Lays out the index of `bytes`, which the check that made `tally` accepted whole; `nil` if the document is too
    /// large for 31-bit offsets.
    init?(bytes: [UInt8], tally: Tally) {
        let limit = UInt64(Self.blockFlag)
        guard UInt64(bytes.count) < limit, UInt64(tally.slotCount) < limit, tally.slotCount > 0 else { return nil }
        var layout = Layout(bytes: bytes, indefinite: tally.indefiniteChildSlots, slotCount: tally.slotCount)
        var offset = 0
        guard layout.place(at: &offset, into: 0), layout.next == tally.slotCount,
            layout.nextIndefinite == tally.indefiniteChildSlots.count
        else { return nil }
        self.bytes = bytes
        self.slots = layout.slots
    }

    /// The root item.
    var root: CBORValue { value(slots[0]) }

    /// An array's or map's block: what a packed ``CBORArray`` or ``CBORMap`` holds.
    struct Block: Sendable {
        let document: CBORPackedDocument
        let index: Int

        /// The block's child slots: an array's items, or a map's keys and values in turn.
        var children: ArraySlice<UInt32> {
            let start = index + 2
            return document.slots[start..<(start + Int(document.slots[index + 1]))]
        }

        /// The child at `position` from the first; traps out of range, as indexing an `Array` does.
        func child(_ position: Int) -> CBORValue {
            let children = children
            return document.value(children[children.startIndex + position])
        }
    }

    /// The item a slot names.
    func value(_ slot: UInt32) -> CBORValue {
        guard slot & Self.blockFlag != 0 else {
            return scalar(at: Int(slot))
        }
        let block = Int(slot & ~Self.blockFlag)
        guard let (head, _) = Self.head(in: bytes, at: Int(slots[block])) else { return .undefined }
        switch head.majorType {
        case .array: return .array(CBORArray(Block(document: self, index: block)))
        case .map: return .map(CBORMap(Block(document: self, index: block)))
        case .tag: return .tagged(head.argument, value(slots[block + 2]))
        default: return .undefined
        }
    }

    /// An integer, string, simple value or float, read again from its head at `offset`.
    private func scalar(at offset: Int) -> CBORValue {
        guard let (head, size) = Self.head(in: bytes, at: offset) else { return .undefined }
        switch head.majorType {
        case .unsignedInteger: return .unsigned(head.argument)
        case .negativeInteger: return .negative(head.argument)
        case .byteString: return .bytes(Array(payload(of: head, at: offset + size)))
        case .textString: return .text(String(decoding: payload(of: head, at: offset + size), as: UTF8.self))
        case .simpleOrFloat: return CBORReader.simpleOrFloat(head)
        case .array, .map, .tag: return .undefined
        }
    }

    /// A string's payload: a slice of the document, or its chunks joined if it has an indefinite length.
    private func payload(of head: CBORHead, at start: Int) -> ArraySlice<UInt8> {
        guard head.isIndefiniteLength else {
            guard let end = Self.end(of: head, at: start, in: bytes) else { return [] }
            return bytes[start..<end]
        }
        var joined: [UInt8] = []
        var offset = start
        while let (chunk, size) = Self.head(in: bytes, at: offset), !chunk.isBreak,
            let end = Self.end(of: chunk, at: offset + size, in: bytes)
        {
            joined.append(contentsOf: bytes[(offset + size)..<end])
            offset = end
        }
        return joined[...]
    }

    /// Where a definite-length string whose payload starts at `start` ends; `nil` past the input.
    private static func end(of head: CBORHead, at start: Int, in bytes: [UInt8]) -> Int? {
        guard start <= bytes.count, head.argument <= UInt64(bytes.count - start) else { return nil }
        return start + Int(head.argument)
    }

    /// The head at `offset` and its size in bytes; `nil` for a reserved form or one cut off by the end. Checked
    /// input only: the head checks of ``CBORReader/readHead()`` are not repeated.
    static func head(in bytes: [UInt8], at offset: Int) -> (CBORHead, Int)? {
        guard offset >= 0, offset < bytes.count else { return nil }
        let initial = bytes[offset]
        let info = initial & 0x1f
        let majorType = CBORReader.majorType(of: initial)
        switch info {
        case 0..<24:
            return (CBORHead(majorType: majorType, additionalInformation: info, argument: UInt64(info)), 1)
        case 24...27:
            let size = 1 << Int(info - 24)
            guard size < bytes.count - offset else { return nil }
            var argument: UInt64 = 0
            for byte in bytes[(offset + 1)...(offset + size)] {
                argument = argument << 8 | UInt64(byte)
            }
            return (CBORHead(majorType: majorType, additionalInformation: info, argument: argument), 1 + size)
        case 31:
            return (CBORHead(majorType: majorType, additionalInformation: info, argument: 0), 1)
        default:
            return nil
        }
    }

    /// The one pass that fills the slots, depth first.
    private struct Layout {
        let bytes: [UInt8]
        let indefinite: [UInt32]
        var slots: [UInt32]
        /// The first slot not yet given to a block.
        var next = 1
        /// The next of `indefinite`'s counts.
        var nextIndefinite = 0

        init(bytes: [UInt8], indefinite: [UInt32], slotCount: Int) {
            self.bytes = bytes
            self.indefinite = indefinite
            slots = [UInt32](repeating: 0, count: slotCount)
        }

        /// Fills `slot` for the item at `offset` (and the item's block, if it has one), moving `offset` past it.
        /// `false` if the bytes or the counts do not agree with the check's (which would be a bug).
        mutating func place(at offset: inout Int, into slot: Int) -> Bool {
            guard let (head, size) = CBORPackedDocument.head(in: bytes, at: offset) else { return false }
            let itemOffset = offset
            offset += size
            let childSlots: Int
            switch head.majorType {
            case .byteString, .textString:
                slots[slot] = UInt32(itemOffset)
                return skipPayload(of: head, at: &offset)
            case .array, .map:
                let perEntry = head.majorType == .map ? 2 : 1
                if head.isIndefiniteLength {
                    guard nextIndefinite < indefinite.count else { return false }
                    childSlots = Int(indefinite[nextIndefinite])
                    nextIndefinite += 1
                } else {
                    guard head.argument <= UInt64(bytes.count) else { return false }
                    childSlots = Int(head.argument) * perEntry
                }
            case .tag:
                childSlots = 1
            case .unsignedInteger, .negativeInteger, .simpleOrFloat:
                slots[slot] = UInt32(itemOffset)
                return true
            }
            let block = next
            guard childSlots <= slots.count - block - 2 else { return false }
            next += 2 + childSlots
            slots[slot] = CBORPackedDocument.blockFlag | UInt32(block)
            slots[block] = UInt32(itemOffset)
            slots[block + 1] = UInt32(childSlots)
            for child in 0..<childSlots {
                guard place(at: &offset, into: block + 2 + child) else { return false }
            }
            if head.isIndefiniteLength {
                offset += 1  // the break
            }
            return true
        }

        /// Moves past a string's payload, and its chunks and break if it has an indefinite length.
        private func skipPayload(of head: CBORHead, at offset: inout Int) -> Bool {
            guard head.isIndefiniteLength else {
                guard let end = CBORPackedDocument.end(of: head, at: offset, in: bytes) else { return false }
                offset = end
                return true
            }
            while let (chunk, size) = CBORPackedDocument.head(in: bytes, at: offset) {
                offset += size
                if chunk.isBreak { return true }
                guard let end = CBORPackedDocument.end(of: chunk, at: offset, in: bytes) else { return false }
                offset = end
            }
            return false
        }
    }
}
