import RinDomain
import RinTestSupport
import Testing

@Suite("SHA-256 as lower-case hex", .onItsOwnThread)
struct SHA256HexTests {
  // Vectors from `printf '%s' TEXT | sha256sum` and Python's hashlib.
  @Test func multiByteCharactersAreHashedAsTheirUTF8Bytes() {
    #expect(
      SHA256Hex.of("Zoë Ångström 📇") == "828c21c9803f00242b66e670696110a35ceff9dba40563ebadad4eea95b3caa4")
  }

  @Test func aTextOfManyBlocksIsHashedWhole() {
    #expect(
      SHA256Hex.of(String(repeating: "0123456789", count: 100))
        == "ab6c5f3237f551d208fc2ca5225a4cca20b3fd638794a804f0ed5549d5041734")
  }

  @Test func digestsOnManyThreadsAtOnceAgree() async {
    let expected = SHA256Hex.of("ada@example.com")
    let results = await withTaskGroup(of: String.self) { group in
      for _ in 0..<64 { group.addTask { SHA256Hex.of("ada@example.com") } }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 64 && results.allSatisfy { $0 == expected })
  }
}
