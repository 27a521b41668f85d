import Foundation
import Testing
import TransferKit
import UniformTypes

@Suite("TransferError", .timeLimit(.minutes(5)))
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

    @Test("A loader that fails with another domain's cancelled code is reported as cancelled, not as loaderFailed")
    func foreignCancellation() async {
        let provider = TransferProvider()
        provider.registerDataRepresentation(for: .png) { _ in
            throw TransferArchiveError(code: .cancelled, message: "The other side stopped.")
        }
        provider.registerDataRepresentation(for: .jpeg) { _ in
            throw TransferArchiveError(code: .truncated, message: "Cut short.")
        }
        let cancelled = await #expect(throws: TransferError.self) {
            _ = try await provider.loadDataRepresentation(for: .png)
        }
        #expect(cancelled?.code == .cancelled)
        #expect((cancelled?.cause as? TransferArchiveError)?.code == .cancelled)
        let failed = await #expect(throws: TransferError.self) {
            _ = try await provider.loadDataRepresentation(for: .jpeg)
        }
        #expect(failed?.code == .loaderFailed)
    }
}
