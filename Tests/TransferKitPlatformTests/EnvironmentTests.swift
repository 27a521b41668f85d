import Foundation
import Testing
import TransferKitPlatform

@Suite("The process environment", .timeLimit(.minutes(5)))
struct EnvironmentTests {
    @Test("environment() reads the variables Foundation reads")
    func sameAsFoundation() {
        let variables = Syscall.environment()
        #expect(!variables.isEmpty)
        #expect(variables == ProcessInfo.processInfo.environment)
        #expect(variables["PATH"] == Syscall.environmentValue("PATH"))
    }

    @Test(
        "an entry splits at its first '='; one without '=' is left out; bytes not UTF-8 become U+FFFD; a repeated name keeps its first"
    )
    func entries() {
        let entries: [[UInt8]] = [
            Array("A=b=c".utf8), Array("NOEQUALS".utf8), Array("D=1".utf8), Array("D=2".utf8),
            [0xFF, 0x3D, 0x78], [0x58, 0x3D, 0xC3], Array("ü=ï".utf8), Array("EMPTY=".utf8),
        ]
        let strings = entries.map { bytes in
            let string = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { string[index] = CChar(bitPattern: byte) }
            string[bytes.count] = 0
            return string
        }
        defer { for string in strings { string.deallocate() } }
        let list = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count + 1)
        defer { list.deallocate() }
        for (index, string) in strings.enumerated() { list[index] = string }
        list[strings.count] = nil
        #expect(
            Syscall.environment(from: list) == [
                "A": "b=c", "D": "1", "\u{FFFD}": "x", "X": "\u{FFFD}", "ü": "ï", "EMPTY": "",
            ])
        #expect(Syscall.environment(from: nil) == [:])
    }
}

@Suite("This machine's host name")
struct HostNameTests {
    @Test("hostName() is the kernel's node name, unresolved")
    func kernelNodeName() throws {
        // The kernel's own copy of the name, which `gethostname` returns on Linux.
        let kernel = try String(contentsOfFile: "/proc/sys/kernel/hostname", encoding: .utf8)
        #expect(Syscall.hostName() == kernel.trimmingCharacters(in: .newlines))
    }
}
