import Foundation
import Testing
import UniformTypes

private func type(_ identifier: String) throws -> UniformType {
    try #require(UniformType(identifier))
}

private let prefix = "org.freedesktop.shared-mime-info."

/// The shared catalog with the shared-mime-info database of every machine of the project
/// (/usr/share/mime, shared-mime-info 2.2). These tests must run, never skip.
@Suite(
    "The system MIME database in the shared catalog", .timeLimit(.minutes(5)),
    .enabled(if: systemMIMEDatabaseIsInstalled, "needs shared-mime-info (Debian: shared-mime-info)"))
struct MIMEImportSystemTests {
    @Test("out of the box: py, md, an alias and pkpass")
    func outOfTheBox() throws {
        #expect(UniformType(filenameExtension: "py") == .pythonScript)
        let markdown = try #require(UniformType(filenameExtension: "md"))
        #expect(markdown == .markdown)
        #expect(markdown.conforms(to: .plainText))
        #expect(UniformType(mimeType: "text/x-markdown") == UniformType(mimeType: "text/markdown"))
        #expect(UniformType(mimeType: "text/x-markdown") == .markdown)
        // A pass as bytes is a zip file: the data form; the package form when asked for.
        #expect(UniformType(mimeType: "application/vnd.apple.pkpass") == (try type("com.apple.pkpass-data")))
        #expect(
            UniformType(mimeType: "application/vnd.apple.pkpass", conformingTo: .package)
                == (try type("com.apple.pkpass")))
        #expect(UniformType(filenameExtension: "pkpass") == (try type("com.apple.pkpass-data")))
    }

    @Test("an undeclared database type conforms to its sub-class-of parents and to public.data")
    func undeclared() throws {
        let python3 = try #require(UniformType(mimeType: "text/x-python3"))
        #expect(python3 == (try type(prefix + "text.x-python3")))
        #expect(!python3.isDynamic)
        #expect(python3.isDeclared)
        // text/x-python shares *.py with the built-in public.python-script and merged into it.
        let python = try type("public.python-script")
        #expect(UniformType(mimeType: "text/x-python") == python)
        #expect(python3.conforms(to: python))
        #expect(python3.conforms(to: .plainText))
        #expect(python3.conforms(to: .data))
        #expect(python3.preferredMIMEType == "text/x-python3")
        let blender = try #require(UniformType(filenameExtension: "blend"))
        #expect(blender == (try type(prefix + "application.x-blender")))
        #expect(blender.conforms(to: .data))
        #expect(blender.preferredFilenameExtension == "blend")
        #expect(blender.localizedDescription?.isEmpty == false)
    }

    @Test("image/svg+xml is public.svg-image: an image and XML")
    func svg() throws {
        let svg = try #require(UniformType(mimeType: "image/svg+xml"))
        #expect(svg == .svg)
        #expect(svg.conforms(to: .image))
        #expect(svg.conforms(to: .xml))
    }

    @Test("inode/directory is an item, not data")
    func directory() throws {
        // Lookups want public.data unless told otherwise, which a directory is not.
        #expect(UniformType(mimeType: "inode/directory")?.isDynamic == true)
        let directory = try #require(UniformType(mimeType: "inode/directory", conformingTo: .item))
        #expect(directory == (try type(prefix + "inode.directory")))
        #expect(!directory.conforms(to: .data))
        #expect(directory.conforms(to: .item))
    }

    @Test("an undeclared image type is an image")
    func image() throws {
        let xcf = try #require(UniformType(mimeType: "image/x-xcf"))
        #expect(!xcf.isDynamic)
        #expect(xcf.conforms(to: .image))
        #expect(xcf.conforms(to: .data))
    }

    @Test("a fresh catalog imports the same database with most MIME types added or mapped")
    func counts() {
        let catalog = TypeCatalog()
        let summary = catalog.importMIMEDatabase(directories: [URL(fileURLWithPath: "/usr/share/mime")])
        #expect(summary.mimeTypeCount > 700)
        #expect(summary.importedTypeCount + summary.mappedToDeclaredTypeCount == summary.mimeTypeCount)
        #expect(summary.mappedToDeclaredTypeCount > 50)
        #expect(summary.aliasCount > 250)
        #expect(summary.problem == nil)
        #expect(catalog.type(filenameExtension: "py") == .pythonScript)
        #expect(catalog.type(mimeType: "application/xml") == .xml)
        #expect(catalog.type(mimeType: "application/octet-stream") == .data)
    }

    @Test("every MIME type of the database has a valid, distinct identifier")
    func identifiersAreValid() throws {
        let catalog = TypeCatalog()
        catalog.importMIMEDatabase(directories: [URL(fileURLWithPath: "/usr/share/mime")])
        let imported = catalog.declarations.filter { catalog.origin(of: $0.identifier) == .mimeDatabase }
        #expect(imported.count > 500)
        #expect(Set(imported.map(\.identifier)).count == imported.count)
        for declaration in imported {
            #expect(UniformType(declaration.identifier.identifier) == declaration.identifier)
            #expect(declaration.identifier.identifier.hasPrefix(prefix))
        }
    }
}
