import Testing
import UniformTypes

@Suite("Types of file names", .timeLimit(.minutes(5)))
struct FileTypeTests {
    @Test(
        "declared types only, else the fallback",
        arguments: [
            ("notes.txt", UniformType.plainText),
            ("folder/script.PY", .pythonScript),
            ("archive.tar.gz", .gzip),
            ("notes.xyz-unknown", .data),
            ("README", .data),
            (".hidden", .data),
            ("trailing.", .data),
        ] as [(String, UniformType)])
    func declaredType(fileName: String, expected: UniformType) {
        #expect(TypeCatalog.shared.declaredType(forFileName: fileName) == expected)
    }

    @Test func fallbackIsConfigurable() {
        #expect(TypeCatalog.shared.declaredType(forFileName: "x.unknownext", fallback: .item) == .item)
    }
}
