import Testing
import UniformTypes

@Suite("Tags", .timeLimit(.minutes(5)))
struct TagTests {
    @Test(
        "filename extension → type",
        arguments: [
            ("png", UniformType.png), ("PNG", .png), (".png", .png), ("jpg", .jpeg), ("JPEG", .jpeg),
            ("txt", .plainText),
            ("json", .json), ("yml", .yaml), ("csv", .commaSeparatedText), ("swift", .swiftSource),
            ("py", .pythonScript),
            ("gif", .gif), ("pdf", .pdf), ("zip", .zip), ("tar", .tarArchive), ("gz", .gzip), ("mp3", .mp3),
            ("mp4", .mpeg4Movie), ("wav", .wav), ("aif", .aiff), ("mov", .quickTimeMovie), ("plist", .propertyList),
            ("vcf", .vCard), ("heic", .heic), ("webp", .webP), ("svg", .svg), ("md", .markdown),
        ]
    )
    func extensionLookup(tag: String, expected: UniformType) {
        #expect(UniformType(filenameExtension: tag) == expected)
    }

    @Test(
        "MIME type → type",
        arguments: [
            ("image/png", UniformType.png), ("IMAGE/PNG", .png), ("image/jpg", .jpeg), ("application/json", .json),
            ("text/html; charset=iso-8859-1", .html), ("application/pdf", .pdf), ("application/zip", .zip),
            ("application/gzip", .gzip), ("audio/mpeg", .mp3), ("video/mp4", .mpeg4Movie), ("audio/mp4", .mpeg4Audio),
            ("text/plain", .plainText), ("text/plain; charset=utf-8", .utf8PlainText),
            ("text/plain;charset=\"UTF-8\"", .utf8PlainText),
            ("text/plain ; format=flowed ; charset=utf-16", .utf16PlainText),
            ("text/plain; charset=us-ascii", .plainText),
            ("image/svg+xml", .svg), ("application/epub+zip", .epub),
        ]
    )
    func mimeLookup(tag: String, expected: UniformType) {
        #expect(UniformType(mimeType: tag) == expected)
    }

    @Test("calendar, pass and log types")
    func appleTypes() throws {
        let ics = try #require(UniformType("com.apple.ical.ics"))
        #expect(UniformType(mimeType: "text/calendar") == ics)
        #expect(UniformType(filenameExtension: "ics") == ics)
        #expect(ics.conforms(to: .calendarEvent) && ics.conforms(to: .text))
        let pass = try #require(UniformType("com.apple.pkpass"))
        #expect(UniformType(mimeType: "application/vnd.apple.pkpass", conformingTo: .item) == pass)
        #expect(pass.preferredMIMEType == "application/vnd.apple.pkpass")
        let appleLog = try #require(UniformType(filenameExtension: "log"))
        #expect(appleLog.identifier == "com.apple.log")
        #expect(appleLog.conforms(to: .log) && appleLog.conforms(to: .plainText))
    }

    @Test("type → preferred tags")
    func preferredTags() {
        #expect(UniformType.jpeg.preferredFilenameExtension == "jpeg")
        #expect(UniformType.jpeg.preferredMIMEType == "image/jpeg")
        #expect(UniformType.png.tags == [.filenameExtension: ["png"], .mimeType: ["image/png"]])
        #expect(UniformType.html.tags[.filenameExtension] == ["html", "htm", "shtml", "shtm"])
        #expect(UniformType.gif.identifier == "com.compuserve.gif")
        #expect(UniformType.pdf.preferredMIMEType == "application/pdf")
        #expect(UniformType.item.preferredFilenameExtension == nil)
        #expect(UniformType.item.preferredMIMEType == nil)
        #expect(UniformType.png.localizedDescription == "PNG image")
    }

    @Test("tags both ways for every declared preferred tag", arguments: UniformType.systemDeclarations)
    func roundTrip(declaration: UniformTypeDeclaration) throws {
        let type = declaration.identifier
        for tagClass in [UniformTypeTagClass.filenameExtension, .mimeType] {
            guard let preferred = declaration.tags[tagClass]?.first else {
                continue
            }
            let claimants = UniformType.types(tag: preferred, tagClass: tagClass, conformingTo: nil)
            #expect(claimants.contains(type), "\(preferred) should name \(type)")
            #expect(UniformType(tag: preferred, tagClass: tagClass, conformingTo: type) == type)
        }
    }

    @Test("conformingTo skips declared types that do not conform")
    func conformingToFilter() throws {
        // Apple's com.apple.pkpass is a package, so with the default public.data the data form wins.
        let passData = try #require(UniformType("com.apple.pkpass-data"))
        let pass = try #require(UniformType("com.apple.pkpass"))
        #expect(UniformType(filenameExtension: "pkpass") == passData)
        #expect(UniformType(filenameExtension: "pkpass", conformingTo: .package) == pass)
        #expect(UniformType.types(tag: "pkpass", tagClass: .filenameExtension, conformingTo: nil) == [pass, passData])
        #expect(UniformType(filenameExtension: "plist", conformingTo: .xml) == .xmlPropertyList)
        #expect(UniformType(mimeType: "audio/mp4") == .mpeg4Audio)
        #expect(UniformType(filenameExtension: "mp4", conformingTo: .audio) == .mpeg4Audio)
    }

    @Test("a declared tag that does not fit conformingTo gives a dynamic type")
    func noFitGivesDynamic() throws {
        let type = try #require(UniformType(filenameExtension: "png", conformingTo: .text))
        #expect(type.isDynamic)
        #expect(type.conforms(to: .text))
        #expect(!type.conforms(to: .image))
        #expect(type.tags == [.filenameExtension: ["png"]])
    }

    @Test("structured-syntax suffixes make dynamic types that conform to the suffix's type")
    func suffixes() throws {
        let json = try #require(UniformType(mimeType: "application/vnd.example.thing+json; charset=utf-8"))
        #expect(json.isDynamic)
        #expect(!json.isDeclared)
        #expect(json.conforms(to: .json))
        #expect(json.conforms(to: .text))
        #expect(json.tags == [.mimeType: ["application/vnd.example.thing+json"]])

        let xml = try #require(UniformType(mimeType: "application/atom+xml"))
        #expect(xml.conforms(to: .xml) && !xml.conforms(to: .json))
        let zip = try #require(UniformType(mimeType: "application/vnd.example+zip"))
        #expect(zip.conforms(to: .zip) && zip.conforms(to: .archive))

        // A requested supertype unrelated to the suffix is kept as well.
        let both = try #require(UniformType(mimeType: "image/vnd.example+json", conformingTo: .image))
        #expect(both.conforms(to: .image) && both.conforms(to: .json))
        // No suffix: plain data.
        let plain = try #require(UniformType(mimeType: "application/x-example"))
        #expect(plain.conforms(to: .data) && !plain.conforms(to: .text))
    }

    @Test("wildcards list the matching declared types")
    func wildcards() {
        let images = UniformType.types(tag: "image/*", tagClass: .mimeType, conformingTo: nil)
        #expect(images.contains(.png) && images.contains(.jpeg) && images.contains(.svg))
        #expect(!images.contains(.pdf))
        #expect(Set(images).count == images.count)
        #expect(images.allSatisfy { $0.conforms(to: .image) })

        let all = UniformType.types(tag: "*/*", tagClass: .mimeType, conformingTo: nil)
        #expect(all.contains(.pdf) && all.contains(.png) && all.contains(.json))
        #expect(!all.contains(.item))

        let textual = UniformType.types(tag: "*/*", tagClass: .mimeType, conformingTo: .text)
        #expect(textual.contains(.json) && !textual.contains(.png))
        #expect(UniformType.types(tag: "text/*", tagClass: .mimeType, conformingTo: nil).contains(.utf8PlainText))

        #expect(UniformType.types(tag: "nothing/*", tagClass: .mimeType, conformingTo: nil).isEmpty)
        #expect(UniformType(mimeType: "image/*") == nil)
    }

    @Test(
        "invalid tags give nil",
        arguments: [
            ("", UniformTypeTagClass.filenameExtension), (".", .filenameExtension), ("..png", .filenameExtension),
            ("png.", .filenameExtension), ("a/b", .filenameExtension), ("a b", .filenameExtension),
            ("tab\t", .filenameExtension), ("nul\u{0}", .filenameExtension),
            (String(repeating: "x", count: 256), .filenameExtension),
            ("", .mimeType), ("image", .mimeType), ("image/", .mimeType), ("/png", .mimeType),
            ("image/png/x", .mimeType),
            ("image /png", .mimeType), ("*/png", .mimeType), ("text/plain; charset", .mimeType),
            ("text/plain; charset=\"utf-8", .mimeType), ("text/plain; =x", .mimeType), ("image/p\u{E9}ng", .mimeType),
            ("", UniformTypeTagClass(rawValue: "com.example.tag")), ("x", UniformTypeTagClass(rawValue: "not a class")),
        ]
    )
    func invalidTags(tag: String, tagClass: UniformTypeTagClass) {
        #expect(UniformType(tag: tag, tagClass: tagClass, conformingTo: nil) == nil)
        #expect(UniformType.types(tag: tag, tagClass: tagClass, conformingTo: nil).isEmpty)
    }

    @Test("a dynamic identifier longer than 255 bytes gives nil")
    func tooLong() {
        let tag = String(repeating: "x", count: 120) + "/" + String(repeating: "-", count: 120)
        #expect(UniformType(mimeType: tag) == nil)
    }

    @Test("tag classes compare without regard to case and code as strings")
    func tagClass() throws {
        #expect(UniformTypeTagClass(rawValue: "PUBLIC.MIME-TYPE") == .mimeType)
        #expect(UniformTypeTagClass.filenameExtension.rawValue == "public.filename-extension")
        #expect(
            UniformType(
                tag: "image/png", tagClass: UniformTypeTagClass(rawValue: "Public.Mime-Type"), conformingTo: nil)
                == .png)
    }
}
