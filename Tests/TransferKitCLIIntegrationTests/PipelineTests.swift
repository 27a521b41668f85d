import Foundation
import Testing
import TransferKitPlatform

@Suite("pack | extract through real pipes (splice and enlarged pipes)", .timeLimit(.minutes(5)))
struct PipelineTests {
    /// Runs `script` with `$tool` the built transferkit and `$dir` the workspace, returning its standard output.
    private func shell(_ script: String, in space: Workspace) async throws -> String {
        let run = try await ChildProcess.run(
            "/bin/sh",
            arguments: [
                "-c", "tool=\"$0\"; dir=\"$1\"; cd \"$dir\" || exit 90\n" + script,
                transferkitPath, space.url.path,
            ])
        #expect(run.status == 0, "\(run.errorText)")
        return run.outputText
    }

    @Test("Every input form gives the archive that pack writes to a file, and extract gives the bytes back")
    func inputForms() async throws {
        let space = try Workspace()
        // Larger than a default pipe and than one 1 MiB chunk, and not a multiple of either.
        let payload = (0..<(3 << 20) + 12_345).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        _ = try space.write("in.bin", payload)
        let output = try await shell(
            """
            "$tool" pack in.bin --type public.data --name in.bin -o file.transferkit || exit 1
            "$tool" pack in.bin --type public.data -o - > named.transferkit || exit 2
            "$tool" pack - --type public.data --name in.bin < in.bin > stdin.transferkit || exit 3
            cat in.bin | "$tool" pack - --type public.data --name in.bin > piped.transferkit || exit 4
            "$tool" pack in.bin --type public.data -o - | cat > spliced.transferkit || exit 5
            "$tool" pack - --type public.data --name in.bin < in.bin | cat > spliced-stdin.transferkit || exit 6
            cmp named.transferkit spliced.transferkit && echo same-named
            for form in stdin piped spliced-stdin; do cmp file.transferkit $form.transferkit && echo same-$form; done
            "$tool" pack - --type public.data < in.bin | "$tool" extract - --type public.data | cmp - in.bin && echo ok-1
            "$tool" pack in.bin --type public.data -o - | "$tool" extract - --type public.data > out.bin || exit 7
            cmp out.bin in.bin && echo ok-2
            """, in: space)
        #expect(
            output.split(separator: "\n") == [
                "same-named", "same-stdin", "same-piped", "same-spliced-stdin", "ok-1", "ok-2",
            ])
    }

    @Test(
        "pack - and pack of a file without an extension type their input by its content",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/mime/magic"), "needs shared-mime-info"))
    func contentTypes() async throws {
        let space = try Workspace()
        _ = try space.write("picture", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48])
        _ = try space.write("notes", Array("plain words\n".utf8))
        let output = try await shell(
            """
            cat picture | "$tool" pack - -o piped.transferkit || exit 1
            "$tool" pack picture notes -o files.transferkit || exit 2
            # Each representation's line: "  0  TYPE  SIZE  crc32 …".
            for archive in piped files; do "$tool" inspect "$archive.transferkit" | awk '$1 == "0" { print $2 }'; done
            """, in: space)
        #expect(output.split(separator: "\n") == ["public.png", "public.png", "public.utf8-plain-text"])
    }

    @Test("A damaged archive from a pipe still fails extract after the payload was written")
    func damagedThroughPipe() async throws {
        let space = try Workspace()
        _ = try space.write("in.bin", (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0) })
        // Flip one payload byte in the middle: the checksum after the payload no longer matches.
        let output = try await shell(
            """
            "$tool" pack in.bin --type public.data -o a.transferkit || exit 1
            size=$(wc -c < a.transferkit)
            { head -c 1000000 a.transferkit; printf '\\377'; tail -c +1000002 a.transferkit; } > bad.transferkit
            [ "$(wc -c < bad.transferkit)" = "$size" ] || exit 2
            cmp -s a.transferkit bad.transferkit && exit 3
            cat bad.transferkit | "$tool" extract - --type public.data > /dev/null 2> err.txt
            echo "status $?"
            grep -c checksumMismatch err.txt
            """, in: space)
        #expect(output.split(separator: "\n") == ["status 2", "1"])
    }
}
