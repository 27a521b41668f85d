import Testing
import TransferKitTesting

@testable import BookShelf
@testable import CharacterCards
@testable import ModulePalette

/// The seed scenarios on TransferSessions, as the examples print them.
@Suite("Examples on sessions", .timeLimit(.minutes(5)))
struct SessionExamplesTests {
    @Test("seed 000: two lists of cards; moves keep the count, a copy adds one")
    func twoLists() async throws {
        #expect(
            try await CharacterCardsExample.twoLists() == [
                "start: [Luke Leia Han] [], 3 cards",
                "drag Han to the top of the first list (move, in place): [Han Luke Leia] [], 3 cards",
                "drag Luke to the second list (move): [Han Leia] [Luke], 3 cards",
                "drag Leia below him (move): [Han] [Luke Leia], 3 cards",
                "drag Luke and let go outside any list (ended(cancel)): [Han] [Luke Leia], 3 cards",
                "copy Leia to the first list (copy: one card more): [Han Leia'] [Luke Leia], 4 cards",
            ])
    }

    @Test("seed 000 between two processes: the child's list loses Han once this process committed him")
    func betweenTwoProcesses() async throws {
        #expect(
            try await CharacterCardsExample.betweenTwoProcesses(
                executable: TransferKitExecutable.product(named: "CharacterCards")) == [
                    "child process source: move; [Luke Leia] (exit 0)",
                    "this process destination: move; [Han]",
                ])
    }

    @Test("seed 001: the canvas builds its own views; local objects in this app, decoding from another")
    func canvasDrops() async throws {
        #expect(
            try await ModulePaletteExample.canvasDrops() == [
                "copy button onto a canvas in this app: copy, the palette's own object",
                "copy switch onto a canvas in another app: copy, decoded from com.example.custom-module",
                "move button onto a canvas in this app: cancel (the palette allows no move)",
                #"canvas: ButtonView(title: "Button", size: 120×44), SwitchView(isOn: false, size: 51×31)"#,
            ])
    }

    @Test("seeds 002, 003, 004: a category tab, the pinned add cell, the edit-mode move")
    func shelfMoves() async throws {
        #expect(
            try await BookShelfExample.sessionMoves() == [
                "friends tab, Norwegian Wood to the front: 0 Norwegian Wood · 1 Demian · 2 The Little Prince · 3 Almond (2 changes)",
                "family tab, The Little Prince to row 1: 0 Norwegian Wood · 1 Demian · 2 Almond · 3 The Little Prince",
                "drag the add cell: forbiddenByList",
                "drop Almond before the add cell: forbidden",
                "drop Almond after it, the list renumbering: 0 + Add a book · 1 Almond · 2 Demian · 3 The Little Prince · 4 Norwegian Wood",
                "edit mode, row 0 to row 3: 0 The Little Prince · 1 Norwegian Wood · 2 Almond · 3 Demian",
            ])
    }
}
