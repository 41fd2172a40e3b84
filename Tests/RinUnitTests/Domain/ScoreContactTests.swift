import RinDomain
import RinJobs
import RinTestSupport
import Testing

@Suite("Score contact names", .onItsOwnThread)
struct ScoreContactTests {
  static func named(_ name: String?) -> ScoreContact {
    ScoreContact(givenName: name, createdAt: 0)
  }

  @Test(arguments: ["Ann", " Ann", "\tA", "é", "Ωmega", "\u{0301}", "\u{01}", "\u{00A0}x", "李"])
  func aNameWithAnyNonWhitespaceCharacterCounts(_ name: String) {
    #expect(Self.named(name).hasName, "\(name.debugDescription) has a visible character")
  }

  @Test(arguments: ["", " ", "\t\n", "\r\n", "\u{0B}\u{0C}", "\u{00A0}", "\u{2003}\u{3000}", "\u{85}"])
  func blankNamesDoNotCount(_ name: String) {
    #expect(!Self.named(name).hasName, "\(name.debugDescription) is blank")
  }

  @Test func anyOfTheThreeNamesIsEnough() {
    #expect(!ScoreContact(createdAt: 0).hasName)
    #expect(ScoreContact(familyName: "Lee", createdAt: 0).hasName)
    #expect(ScoreContact(givenName: " ", familyName: "", displayName: "Dr. X", createdAt: 0).hasName)
    #expect(!ScoreContact(givenName: " ", familyName: "\t", displayName: "", createdAt: 0).hasName)
  }

  @Test(arguments: [
    [0xFF], [0x20, 0xC3], [0xC2, 0xA0], [0xC2, 0x85, 0x20], [0xE2, 0x80, 0x83, 0x41], [0xCC, 0x81],
  ])
  func theByteRuleReadsInvalidUTF8AsStringDoes(_ bytes: [UInt8]) {
    let decoded = String(decoding: bytes, as: UTF8.self)
    let expected = decoded.contains { !$0.isWhitespace }
    #expect(bytes.withUnsafeBufferPointer { ScoreContact.isNotBlank(utf8: $0) } == expected)
    #expect(ScoreContact.isNotBlank(decoded) == expected)
  }
}
