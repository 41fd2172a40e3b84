import RinNormalize
import RinTestSupport
import Testing

@Suite("Family names compare trimmed, case- and diacritic-insensitively")
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
}
