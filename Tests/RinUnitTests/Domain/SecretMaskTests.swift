import RinDomain
import RinTestSupport
import Testing

/// One masking function for every printed URL or connection string (issue 52 item 3).
@Suite("SecretMask and TerminalText", .onItsOwnThread)
struct SecretMaskTests {
  @Test(arguments: [
    ("postgres://rin:s3cr3t@db:5432/rin", "postgres://rin:***@db:5432/rin"),
    ("postgresql://rin:p%40ss@db/rin?sslmode=verify-full", "postgresql://rin:***@db/rin?sslmode=verify-full"),
    (
      "postgres://rin@db/rin?password=s3cr3t&sslmode=require",
      "postgres://rin@db/rin?password=***&sslmode=require"
    ),
    ("postgres://db/rin?sslpassword=s3cr3t", "postgres://db/rin?sslpassword=***"),
    ("https://gw/x?api_token=s3cr3t&job=a", "https://gw/x?api_token=***&job=a"),
    ("ftp://admin:s3cr3t@gw", "ftp://admin:***@gw"),
    ("host=db dbname=rin password=s3cr3t user=rin", "host=db dbname=rin password=*** user=rin"),
    ("host=db password = 'it''s a s3cr3t' user=rin", "host=db password = *** user=rin"),
    ("host=db password='a \\' s3cr3t' user=rin", "host=db password=*** user=rin"),
    ("var/rin.sqlite", "var/rin.sqlite"),
    ("postgres://rin@db/rin", "postgres://rin@db/rin"),
    ("got 'ftp://admin:s3cr3t@gw', expected http", "got 'ftp://admin:***@gw', expected http"),
    ("client_secret=s3cr3t", "client_secret=***"),
  ])
  func masksEverySecretItKnows(_ text: String, _ expected: String) {
    #expect(SecretMask.masked(text) == expected)
    #expect(!SecretMask.masked(text).contains("s3cr3t"))
    #expect(SecretMask.masked(SecretMask.masked(text)) == SecretMask.masked(text), "idempotent")
  }

  @Test func saysWhetherATextHoldsASecret() {
    #expect(SecretMask.holdsSecret("postgres://rin:x@db/rin"))
    #expect(SecretMask.holdsSecret("host=db password=x"))
    #expect(!SecretMask.holdsSecret("postgres://rin@db/rin"))
    #expect(!SecretMask.holdsSecret("/var/lib/rin/rin.sqlite"))
  }

  @Test func terminalEscapesAndLineBreaksDoNotSurvive() {
    let typed = "deploy\u{1B}]0;pwned\u{07}\u{1B}[2J\nsecond line\u{9B}31m\u{202E}txt"
    let printable = TerminalText.printable(typed)
    #expect(printable.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) })
    #expect(!printable.contains("\u{202E}"))
    #expect(printable.contains("deploy") && printable.contains("second line"))
    #expect(TerminalText.printable("plain reason, café") == "plain reason, café")
  }
}
