/// PNG's five row filters (ISO/IEC 15948 9.2), both ways.
enum PNGFilter {
    /// Undoes filter `type` on `row` in place, given the unfiltered row above (zeros for the first row).
    static func unfilter(_ row: inout [UInt8], previous: [UInt8], type: UInt8, stride: Int) throws(ImagingError) {
        switch type {
        case 0:
            return
        case 1:
            for index in stride..<max(stride, row.count) { row[index] &+= row[index - stride] }
        case 2:
            for index in 0..<row.count { row[index] &+= previous[index] }
        case 3:
            for index in 0..<row.count {
                let left = index >= stride ? Int(row[index - stride]) : 0
                row[index] &+= UInt8((left + Int(previous[index])) / 2)
            }
        case 4:
            for index in 0..<row.count {
                let left = index >= stride ? row[index - stride] : 0
                let upLeft = index >= stride ? previous[index - stride] : 0
                row[index] &+= paeth(left, previous[index], upLeft)
            }
        default:
            throw ImagingError(code: .invalidFilter, message: "a row names filter type \(type), not 0–4")
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
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a))
        let pb = abs(p - Int(b))
        let pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}
