import Foundation
import RinNormalize
import RinTestSupport
import Testing

@Suite("Family names compare trimmed, case- and diacritic-insensitively", .onItsOwnThread)
struct FamilyNameTests {
  @Test func spellingsOfOneNameAreEqual() {
    let forms = ["Müller", "MULLER", "muller", " Müller ", "MÜLLER", "Mu\u{0308}ller", "\u{00A0}Muller\t"]
    #expect(Set(forms.map(FamilyName.normalized)) == ["muller"])
    #expect(FamilyName.normalized("Nguyễn") == FamilyName.normalized("NGUYEN"))
    #expect(FamilyName.normalized("Dvořák") == "dvorak")
  }

  @Test func differentNamesStayDifferent() {
    #expect(FamilyName.normalized("Müller") != FamilyName.normalized("Miller"))
    #expect(FamilyName.normalized("Silva") != FamilyName.normalized("Silvas"))
  }

  @Test func blankIsNoName() {
    for blank in [nil, "", "   ", "\n"] as [String?] { #expect(FamilyName.normalized(blank) == nil) }
  }

  /// ASCII names skip Foundation's folding: the same result for every ASCII character, alone
  /// and inside a name, and with white space around it.
  @Test func asciiFoldsAsFoundationDoes() {
    for byte in UInt8(0x00)...UInt8(0x7F) {
      let character = String(UnicodeScalar(byte))
      for raw in ["Ab\(character)Cd", "\(character)Zed", "Zed\(character)", " \(character) "] {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let foundation =
          trimmed.isEmpty
          ? nil : trimmed.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        #expect(FamilyName.normalized(raw) == foundation, "byte \(byte)")
      }
    }
    #expect(FamilyName.normalized("e\u{0301}Tienne") == "etienne", "a combining mark after an ASCII letter")
    #expect(FamilyName.normalized("O'BRIEN-SMITH") == "o'brien-smith")
  }
}
