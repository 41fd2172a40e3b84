import Foundation
import RinDomain
import RinTestSupport
import Testing

/// The one JSON string escaper, used by the provider's request bodies and by the storage
/// module's bound JSON arrays. Checked against Foundation's JSON parser, an independent decoder.
@Suite("JSON string literals", .onItsOwnThread)
struct JSONStringTests {
  /// What a JSON parser reads back from `literal`.
  static func decoded(_ literal: String) throws -> String? {
    let array = try JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [Any]
    return array?.first as? String
  }

  @Test func plainTextIsOnlyQuoted() {
    #expect(JSONString.quoted("+15551234567") == #""+15551234567""#)
    #expect(JSONString.quoted("") == #""""#)
  }

  @Test func quoteAndBackslashAreEscaped() {
    #expect(JSONString.quoted(#"a"b"#) == #""a\"b""#)
    #expect(JSONString.quoted(#"a\b"#) == #""a\\b""#)
    #expect(JSONString.quoted(#"\""#) == #""\\\"""#)
  }

  @Test func controlCharactersAreEscaped() {
    #expect(JSONString.quoted("a\nb\rc\td") == #""a\nb\rc\td""#)
    #expect(JSONString.quoted("\u{0}") == #""\u0000""#)
    #expect(JSONString.quoted("\u{1}x\u{1F}") == #""\u0001x\u001f""#)
    #expect(JSONString.quoted("\u{8}\u{C}") == #""\u0008\u000c""#)
  }

  @Test func nonASCIIIsWrittenAsItIs() {
    #expect(JSONString.quoted("José") == "\"José\"")
    #expect(JSONString.quoted("日本 👩‍👩‍👧") == "\"日本 👩‍👩‍👧\"")
    // DEL and the line separators are not control characters to JSON: no escape needed.
    #expect(JSONString.quoted("\u{7F}\u{2028}") == "\"\u{7F}\u{2028}\"")
  }

  @Test(arguments: [
    "", "plain", "quote \" inside", "back\\slash", "new\nline", "tab\tand\rreturn", "\u{0}\u{1}\u{1F}",
    "é ü 日本 👩‍👩‍👧", "mixed \"\\\u{7}é\n",
  ])
  func aParserReadsBackTheSameString(_ value: String) throws {
    #expect(try Self.decoded(JSONString.quoted(value)) == value)
  }

  @Test func appendingWritesAfterWhatIsThere() {
    var text = "["
    JSONString.appendQuoted("a\"", to: &text)
    text += ","
    JSONString.appendQuoted("b", to: &text)
    #expect(text == #"["a\"","b""#)
  }
}
