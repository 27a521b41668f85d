import Foundation
import Testing
import TransferKitTestSupport

@testable import UniformTypes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A Unix-domain socket bound at `path` (closed at once: the socket file stays).
private func makeSocketFile(at path: String) throws {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in bytes.enumerated() { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    try #require(bound == 0)
}

@Suite("The special-file rule of content sniffing", .timeLimit(.minutes(5)))
struct SpecialFileTests {
    /// A catalogue with the system's MIME database when there is one (then the `inode/` types are declared), else
    /// without (then they are dynamic types); the rule is the same.
    private let catalog: TypeCatalog = {
        let catalog = TypeCatalog()
        catalog.importMIMEDatabase(directories: [URL(fileURLWithPath: "/usr/share/mime")])
        return catalog
    }()

    private func inode(_ kind: String) -> UniformType? {
        catalog.type(tag: "inode/" + kind, tagClass: .mimeType, conformingTo: nil)
    }

    @Test("/dev/null, /dev/zero and /dev/urandom are one kind, typed without being read, whatever the name says")
    func characterDevices() throws {
        let chardevice = try #require(inode("chardevice"))
        for path in ["/dev/null", "/dev/zero", "/dev/urandom"] {
            let url = URL(fileURLWithPath: path)
            #expect(try catalog.type(forFileAt: url) == chardevice, "\(path)")
            #expect(try catalog.type(forContentsOf: url) == chardevice, "\(path)")
            #expect(try FileKind(atPath: path) == .characterDevice)
        }
    }

    @Test("a FIFO is inode/fifo at once, with no writer; a socket inode/socket; a directory public.folder")
    func fifosSocketsAndDirectories() throws {
        let folder = try makeTemporaryDirectory(prefix: "transferkit-special")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("notes.txt")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(try catalog.type(forFileAt: fifo) == inode("fifo"))
        #expect(try catalog.type(forContentsOf: fifo) == inode("fifo"))
        let socketFile = folder.appendingPathComponent("s.png")
        try makeSocketFile(at: socketFile.path)
        #expect(try FileKind(atPath: socketFile.path) == .socket)
        #expect(try catalog.type(forFileAt: socketFile) == inode("socket"))
        // public.folder, or the database's type for inode/directory when the database has one.
        let directory = try catalog.type(forFileAt: folder)
        #expect(directory == .folder || catalog.tags(of: directory)[.mimeType]?.contains("inode/directory") == true)
    }

    @Test("the kinds without content are refused with unreadableFile by commands that take content")
    func refusal() throws {
        #expect(FileKind.regularFile.hasContent)
        #expect(FileKind.fifo.hasContent)
        for kind in [FileKind.characterDevice, .blockDevice, .socket, .directory, .other] {
            #expect(!kind.hasContent)
            #expect(kind.refusal(path: "/dev/x").code == .unreadableFile)
        }
        #expect(
            FileKind.characterDevice.refusal(path: "/dev/zero").message.hasPrefix(
                "/dev/zero is a character device (inode/chardevice), not a file with content of its own"))
        let missing = #expect(throws: UniformTypeError.self) { try FileKind(atPath: "/nonexistent/x") }
        #expect(missing?.code == .unreadableFile)
    }
}
