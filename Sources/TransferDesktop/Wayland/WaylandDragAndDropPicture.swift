/// The picture of a window of TransferKit's own on Wayland, in ARGB8888: a light background in a dark frame, a
/// coloured stripe at the top, and the lines in a built-in 5×7 bitmap font drawn at twice its size (ASCII letters,
/// digits and punctuation; lower case is drawn in capitals, anything else as a box).
struct WaylandWindowPicture {
    /// The pixels each glyph pixel covers, either way.
    static let scale: Int32 = 2
    /// The advance from one character to the next.
    static let advance: Int32 = 6 * scale
    /// The distance from one line to the next.
    static let lineHeight: Int32 = 9 * scale
    /// The margin around the text.
    static let margin: Int32 = 10
    /// The most lines and characters per line drawn (a longer text is cut).
    static let maximumLines = 40
    static let maximumColumns = 78

    static let background: UInt32 = 0xFFF4_F4F4
    static let ink: UInt32 = 0xFF20_2020
    static let stripe: UInt32 = 0xFF30_4A6E
    static let frame: UInt32 = 0xFF00_0000

    let width: Int32
    let height: Int32
    let pixels: [UInt8]

    init(lines: [String]) {
        let shown = lines.prefix(Self.maximumLines).map { Array($0.prefix(Self.maximumColumns)) }
        let columns = Int32(shown.map(\.count).max() ?? 0)
        let width = max(240, 2 * Self.margin + columns * Self.advance)
        let height = 2 * Self.margin + 4 + max(Int32(shown.count), 1) * Self.lineHeight
        var canvas = [UInt32](repeating: Self.background, count: Int(width * height))
        func fill(_ x0: Int32, _ y0: Int32, _ x1: Int32, _ y1: Int32, _ color: UInt32) {
            for y in max(y0, 0)..<min(y1, height) {
                for x in max(x0, 0)..<min(x1, width) { canvas[Int(y * width + x)] = color }
            }
        }
        for (row, line) in shown.enumerated() {
            let top = Self.margin + 4 + Int32(row) * Self.lineHeight
            for (column, character) in line.enumerated() {
                let left = Self.margin + Int32(column) * Self.advance
                for (y, bits) in Self.glyph(character).enumerated() {
                    for x in 0..<5 where bits & (0b10000 >> x) != 0 {
                        let (px, py) = (left + Int32(x) * Self.scale, top + Int32(y) * Self.scale)
                        fill(px, py, px + Self.scale, py + Self.scale, Self.ink)
                    }
                }
            }
        }
        fill(0, 0, width, 4, Self.stripe)
        fill(0, 0, width, 1, Self.frame)
        fill(0, height - 1, width, height, Self.frame)
        fill(0, 0, 1, height, Self.frame)
        fill(width - 1, 0, width, height, Self.frame)
        self.width = width
        self.height = height
        pixels = canvas.withUnsafeBytes { Array($0) }
    }

    /// The seven rows of `character`'s glyph, the leftmost pixel in bit 4.
    static func glyph(_ character: Character) -> [UInt8] {
        // A capital may be several characters (ß is SS): those fall back to the character itself, then the box.
        let upper = character.uppercased()
        if upper.count == 1, let first = upper.first, let glyph = font[first] { return glyph }
        return font[character] ?? box
    }

    /// A box, for characters the font does not have.
    static let box: [UInt8] = [0b11111, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b11111]

    /// The font: 5×7 glyphs of ASCII's capitals, digits and punctuation.
    static let font: [Character: [UInt8]] = [
        "A": [0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001],
        "B": [0b11110, 0b10001, 0b10001, 0b11110, 0b10001, 0b10001, 0b11110],
        "C": [0b01110, 0b10001, 0b10000, 0b10000, 0b10000, 0b10001, 0b01110],
        "D": [0b11100, 0b10010, 0b10001, 0b10001, 0b10001, 0b10010, 0b11100],
        "E": [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b11111],
        "F": [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b10000],
        "G": [0b01110, 0b10001, 0b10000, 0b10111, 0b10001, 0b10001, 0b01111],
        "H": [0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001],
        "I": [0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
        "J": [0b00111, 0b00010, 0b00010, 0b00010, 0b00010, 0b10010, 0b01100],
        "K": [0b10001, 0b10010, 0b10100, 0b11000, 0b10100, 0b10010, 0b10001],
        "L": [0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b11111],
        "M": [0b10001, 0b11011, 0b10101, 0b10101, 0b10001, 0b10001, 0b10001],
        "N": [0b10001, 0b10001, 0b11001, 0b10101, 0b10011, 0b10001, 0b10001],
        "O": [0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],
        "P": [0b11110, 0b10001, 0b10001, 0b11110, 0b10000, 0b10000, 0b10000],
        "Q": [0b01110, 0b10001, 0b10001, 0b10001, 0b10101, 0b10010, 0b01101],
        "R": [0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001],
        "S": [0b01111, 0b10000, 0b10000, 0b01110, 0b00001, 0b00001, 0b11110],
        "T": [0b11111, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100],
        "U": [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],
        "V": [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01010, 0b00100],
        "W": [0b10001, 0b10001, 0b10001, 0b10101, 0b10101, 0b10101, 0b01010],
        "X": [0b10001, 0b10001, 0b01010, 0b00100, 0b01010, 0b10001, 0b10001],
        "Y": [0b10001, 0b10001, 0b10001, 0b01010, 0b00100, 0b00100, 0b00100],
        "Z": [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b11111],
        "0": [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110],
        "1": [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
        "2": [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111],
        "3": [0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110],
        "4": [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010],
        "5": [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110],
        "6": [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110],
        "7": [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000],
        "8": [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110],
        "9": [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100],
        " ": [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000],
        ".": [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b01100],
        ",": [0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b00100, 0b01000],
        ":": [0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b01100, 0b00000],
        ";": [0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b00100, 0b01000],
        "-": [0b00000, 0b00000, 0b00000, 0b11111, 0b00000, 0b00000, 0b00000],
        "_": [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b11111],
        "/": [0b00000, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b00000],
        "\\": [0b00000, 0b10000, 0b01000, 0b00100, 0b00010, 0b00001, 0b00000],
        "(": [0b00010, 0b00100, 0b01000, 0b01000, 0b01000, 0b00100, 0b00010],
        ")": [0b01000, 0b00100, 0b00010, 0b00010, 0b00010, 0b00100, 0b01000],
        "[": [0b01110, 0b01000, 0b01000, 0b01000, 0b01000, 0b01000, 0b01110],
        "]": [0b01110, 0b00010, 0b00010, 0b00010, 0b00010, 0b00010, 0b01110],
        "<": [0b00010, 0b00100, 0b01000, 0b10000, 0b01000, 0b00100, 0b00010],
        ">": [0b01000, 0b00100, 0b00010, 0b00001, 0b00010, 0b00100, 0b01000],
        "'": [0b01100, 0b00100, 0b01000, 0b00000, 0b00000, 0b00000, 0b00000],
        "\"": [0b01010, 0b01010, 0b01010, 0b00000, 0b00000, 0b00000, 0b00000],
        "!": [0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00000, 0b00100],
        "?": [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b00000, 0b00100],
        "+": [0b00000, 0b00100, 0b00100, 0b11111, 0b00100, 0b00100, 0b00000],
        "=": [0b00000, 0b00000, 0b11111, 0b00000, 0b11111, 0b00000, 0b00000],
        "*": [0b00000, 0b00100, 0b10101, 0b01110, 0b10101, 0b00100, 0b00000],
        "@": [0b01110, 0b10001, 0b00001, 0b01101, 0b10101, 0b10101, 0b01110],
        "#": [0b01010, 0b01010, 0b11111, 0b01010, 0b11111, 0b01010, 0b01010],
        "%": [0b11000, 0b11001, 0b00010, 0b00100, 0b01000, 0b10011, 0b00011],
        "&": [0b01100, 0b10010, 0b10100, 0b01000, 0b10101, 0b10010, 0b01101],
        "~": [0b00000, 0b00000, 0b01000, 0b10101, 0b00010, 0b00000, 0b00000],
        "$": [0b00100, 0b01111, 0b10100, 0b01110, 0b00101, 0b11110, 0b00100],
        "|": [0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100],
        "{": [0b00010, 0b00100, 0b00100, 0b01000, 0b00100, 0b00100, 0b00010],
        "}": [0b01000, 0b00100, 0b00100, 0b00010, 0b00100, 0b00100, 0b01000],
        "^": [0b00100, 0b01010, 0b10001, 0b00000, 0b00000, 0b00000, 0b00000],
        "`": [0b01000, 0b00100, 0b00010, 0b00000, 0b00000, 0b00000, 0b00000],
    ]
}
