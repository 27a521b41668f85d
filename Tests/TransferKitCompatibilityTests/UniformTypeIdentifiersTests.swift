import Foundation
import Testing
import TransferKitCompatibility

@Suite("kUTType constants and UTType", .timeLimit(.minutes(5)))
struct UniformTypeIdentifiersTests {
    @Test("Each kUTType constant is the identifier Apple gives it, of a type TransferKit declares")
    func constants() {
        let table: [(String, String)] = [
            (kUTTypeData as String, "public.data"), (String(kUTTypePlainText), "public.plain-text"),
            (kUTTypeUTF8PlainText, "public.utf8-plain-text"), (kUTTypeJSON, "public.json"), (kUTTypeURL, "public.url"),
            (kUTTypeFileURL, "public.file-url"), (kUTTypePNG, "public.png"), (kUTTypeJPEG, "public.jpeg"),
            (kUTTypeGIF, "com.compuserve.gif"), (kUTTypePDF, "com.adobe.pdf"), (kUTTypeHTML, "public.html"),
            (kUTTypeMPEG4, "public.mpeg-4"), (kUTTypeScalableVectorGraphics, "public.svg-image"),
            (kUTTypeZipArchive, "public.zip-archive"), (kUTTypeVCard, "public.vcard"),
            (kUTTagClassMIMEType, "public.mime-type"), (kUTTagClassFilenameExtension, "public.filename-extension"),
        ]
        for (constant, identifier) in table {
            #expect(constant == identifier)
        }
        for constant in [kUTTypeItem, kUTTypeContent, kUTTypeText, kUTTypeImage, kUTTypeMovie, kUTTypeAudio] {
            #expect(UTType(constant)?.isDeclared == true)
        }
    }

    @Test("UTType is TransferKit's UniformType under Apple's name, with Apple's API")
    func utType() throws {
        #expect(UTType.plainText.conforms(to: .text))
        #expect(UTType(filenameExtension: "json") == .json)
        #expect(UTType(mimeType: "image/png") == .png)
        #expect(UTType.png.preferredFilenameExtension == "png")
        #expect(UTType.png.tags[UTTagClass.mimeType]?.contains("image/png") == true)
        #expect(UTType.types(tag: "jpg", tagClass: .filenameExtension, conformingTo: nil).contains(.jpeg))
        let custom = UTType(exportedAs: "com.example.compatibility-card", conformingTo: .json)
        #expect(custom.conforms(to: .text) && custom.isDeclared && !custom.isDynamic)
        #expect(UTType("not an identifier") == nil)
    }
}
