import Foundation
import Testing
import TransferKit

@Suite("TransferError")
struct TransferErrorTests {
    @Test(
        "Every code has a distinct name",
        arguments: [
            (TransferError.Code.unavailableRepresentation, "unavailableRepresentation"), (.noReader, "noReader"),
            (.decodingFailed, "decodingFailed"), (.encodingFailed, "encodingFailed"), (.cancelled, "cancelled"),
            (.loaderFailed, "loaderFailed"), (.fileCoercionFailed, "fileCoercionFailed"),
            (.registryConflict, "registryConflict"),
        ])
    func codeNames(code: TransferError.Code, name: String) {
        #expect(code.description == name)
    }

    @Test("The description names the code, message, source and cause")
    func description() {
        let error = TransferError(code: .loaderFailed, message: "It broke.", cause: LoaderBroke(), source: "public.png")
        #expect(
            error.description == "TransferError.loaderFailed: It broke. (in public.png) (cause: LoaderBroke())")
        #expect(error.code != .cancelled)
    }
}
