/// PNG's five row filters (ISO/IEC 15948 9.2), both ways.
enum PNGFilter {
    /// Undoes filter `type` on `row` in place, given the unfiltered row above (zeros for the first row).
    static func unfilter(_ row: inout [UInt8], previous: [UInt8], type: UInt8, stride: Int) throws(ImagingError) {
        guard type <= 4 else {
            throw ImagingError(code: .invalidFilter, message: "a row names filter type \(type), not 0–4")
        }
        guard type != 0 else { return }
        // Pointers, no bounds checks: `previous` is at least as long as `row` (the decoder's two rows of a pass).
        let count = min(row.count, previous.count)
        let stride = min(max(stride, 1), count)
        row.withUnsafeMutableBufferPointer { current in
            previous.withUnsafeBufferPointer { above in
                guard let row = current.baseAddress, let above = above.baseAddress else { return }
                switch type {
                case 1:
                    for index in stride..<count { row[index] &+= row[index - stride] }
                case 2:
                    for index in 0..<count { row[index] &+= above[index] }
                case 3:
                    for index in 0..<stride { row[index] &+= above[index] >> 1 }
                    for index in stride..<count {
                        row[index] &+= UInt8(
                            truncatingIfNeeded: (UInt16(row[index - stride]) + UInt16(above[index])) >> 1)
                    }
                default:
                    // Paeth with no left pixel predicts from above.
                    for index in 0..<stride { row[index] &+= above[index] }
                    var index = stride
                    if stride == 4 {
                        // RGBA8: a pixel's four channels at once.
                        var left = SIMD4<Int16>(Int16(row[0]), Int16(row[1]), Int16(row[2]), Int16(row[3]))
                        var upLeft = SIMD4<Int16>(
                            Int16(above[0]), Int16(above[1]), Int16(above[2]), Int16(above[3]))
                        while index + 4 <= count {
                            let up = SIMD4<Int16>(
                                Int16(above[index]), Int16(above[index + 1]), Int16(above[index + 2]),
                                Int16(above[index + 3]))
                            let predicted = paeth(left, up, upLeft)
                            let filtered = SIMD4<Int16>(
                                Int16(row[index]), Int16(row[index + 1]), Int16(row[index + 2]),
                                Int16(row[index + 3]))
                            let value = (filtered &+ predicted) & 255
                            row[index] = UInt8(truncatingIfNeeded: value[0])
                            row[index + 1] = UInt8(truncatingIfNeeded: value[1])
                            row[index + 2] = UInt8(truncatingIfNeeded: value[2])
                            row[index + 3] = UInt8(truncatingIfNeeded: value[3])
                            left = value
                            upLeft = up
                            index += 4
                        }
                    }
                    while index < count {
                        row[index] &+= paeth(row[index - stride], above[index], above[index - stride])
                        index += 1
                    }
                }
            }
        }
    }

    /// `row` filtered with `type` (0–4), given the row above, written into `filtered` (as long as `row`); returns
    /// the sum of the filtered bytes' absolute values as signed bytes, the encoder's measure of a filter.
    static func filter(
        _ row: UnsafeBufferPointer<UInt8>, previous above: UnsafeBufferPointer<UInt8>, type: UInt8, stride: Int,
        into filtered: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var cost = 0
        for index in 0..<row.count {
            let left = index >= stride ? row[index - stride] : 0
            let upLeft = index >= stride ? above[index - stride] : 0
            let predictor: UInt8 =
                switch type {
                case 1: left
                case 2: above[index]
                case 3: UInt8((Int(left) + Int(above[index])) / 2)
                case 4: paeth(left, above[index], upLeft)
                default: 0
                }
            let value = row[index] &- predictor
            filtered[index] = value
            cost += value < 128 ? Int(value) : 256 - Int(value)
        }
        return cost
    }

    /// The Paeth predictor: whichever of left, above and upper-left is closest to left + above − upper-left.
    @inline(__always) static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        // p − a = b − c, p − b = a − c, p − c = (b − c) + (a − c).
        let pa = abs(Int(b) - Int(c))
        let pb = abs(Int(a) - Int(c))
        let pc = abs(Int(b) - Int(c) + Int(a) - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// ``paeth(_:_:_:)`` of four channels at once (values 0–255).
    @inline(__always) static func paeth(
        _ a: SIMD4<Int16>, _ b: SIMD4<Int16>, _ c: SIMD4<Int16>
    ) -> SIMD4<Int16> {
        let bc = b &- c
        let ac = a &- c
        let abc = bc &+ ac
        let pa = bc.replacing(with: 0 &- bc, where: bc .< 0)
        let pb = ac.replacing(with: 0 &- ac, where: ac .< 0)
        let pc = abc.replacing(with: 0 &- abc, where: abc .< 0)
        let useA = (pa .<= pb) .& (pa .<= pc)
        return c.replacing(with: b, where: pb .<= pc).replacing(with: a, where: useA)
    }
}
