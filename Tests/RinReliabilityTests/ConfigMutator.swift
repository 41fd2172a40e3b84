import Foundation
import RinTestSupport

/// Seeded, deterministic damage to a YAML file: the kinds of mistakes people and tools make
/// (typos, lost lines, broken indentation, wrong types) and the hostile ones (huge numbers,
/// odd Unicode, invalid UTF-8, deep nesting, alias bombs, truncation).
struct ConfigMutator {
  enum Kind: String, CaseIterable {
    case byteFlip, spanDeletion, lineDeletion, lineDuplication, typeSwap, indentation, tabs
    case hugeNumber, unicode, invalidUTF8, deepNesting, aliasBomb, truncation, keyTypo, lineSwap
  }

  static let replacementValues = [
    "[]", "{}", "-1", "0", "99999999999999999999999999", "1e309", "-1e309", ".nan", ".inf", "true", "null",
    "~", "0x1F", "0o17", "-0", "1.5", "\"\"", "''", "&anchor 5", "*missing", "!!binary aGVsbG8=", "!custom x",
    "|\n  block", ">-\n  folded", "[1, [2, [3]]]", "{a: 1, a: 2}", "\"\\u202Eevil\"", "\"\\0\"", "? complex",
    "- item", "@daily", "`tick`", "%", "\"30 2 * * * *\"", "\"61 25 32 13 8\"", "\"*/0 * * * *\"",
    "\"0-59/99999999999999999999 * * * *\"", "0s", "-5d", "1h30", "99999999999999999w", "7d7d",
  ]

  static let unicodeSnippets = [
    "\u{FEFF}", "\u{200B}", "\u{202E}", "\u{0301}\u{0301}\u{0301}", "👨‍👩‍👧‍👦", "🏳️‍🌈", "\u{0000}", "\u{FFFD}",
    "ﬁ", "Å", "İ", "\u{2028}", "\u{85}", "日本語", "\u{10FFFF}", "\t", "\r", "\r\n", "\u{1B}[31m",
  ]

  static let invalidUTF8: [[UInt8]] = [
    [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE2, 0x82], [0x80],
  ]

  var random: SeededGenerator

  /// One variant: one to four mutations of `original`, and what they were.
  mutating func variant(of original: [UInt8]) -> (bytes: [UInt8], kinds: [Kind]) {
    var bytes = original
    var kinds: [Kind] = []
    for _ in 0..<Int.random(in: 1...4, using: &random) {
      let kind = Kind.allCases.randomElement(using: &random) ?? .byteFlip
      kinds.append(kind)
      bytes = apply(kind, to: bytes)
    }
    return (bytes, kinds)
  }

  mutating func apply(_ kind: Kind, to bytes: [UInt8]) -> [UInt8] {
    guard !bytes.isEmpty else {
      return Array("\(Self.replacementValues.randomElement(using: &random) ?? "")".utf8)
    }
    var bytes = bytes
    let at = Int.random(in: 0..<bytes.count, using: &random)
    switch kind {
    case .byteFlip:
      bytes[at] = UInt8.random(in: 0...255, using: &random)
    case .spanDeletion:
      bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...24, using: &random)))
    case .truncation:
      bytes.removeSubrange(at...)
    case .invalidUTF8:
      bytes.insert(contentsOf: Self.invalidUTF8.randomElement(using: &random) ?? [0xFF], at: at)
    case .unicode:
      bytes.insert(contentsOf: Array((Self.unicodeSnippets.randomElement(using: &random) ?? "").utf8), at: at)
    case .hugeNumber:
      let digits = String((0..<Int.random(in: 19...400, using: &random)).map { _ in "9" })
      bytes.insert(contentsOf: Array(digits.utf8), at: at)
    case .deepNesting:
      let depth = Int.random(in: 100...20_000, using: &random)
      let open = Bool.random(using: &random) ? "[" : "{a: "
      let close = open == "[" ? "]" : "}"
      let nest = String(repeating: open, count: depth) + String(repeating: close, count: depth)
      return replacingValue(in: bytes, at: at, with: nest)
    case .aliasBomb:
      var bomb = "&l0 [x, x, x, x, x, x, x, x, x, x]"
      var lines = lines(of: bytes)
      for level in 1...9 {
        bomb = "&l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]"
        lines.insert(
          "bomb\(level): " + (level == 1 ? "&l0 [x, x, x, x, x, x, x, x, x, x]\nbombx: " : "") + bomb, at: 0)
      }
      lines.append("  extra_free_mail_domains: *l9")
      return Array(lines.joined(separator: "\n").utf8)
    case .typeSwap:
      return replacingValue(
        in: bytes, at: at, with: Self.replacementValues.randomElement(using: &random) ?? "[]")
    case .lineDeletion, .lineDuplication, .indentation, .tabs, .keyTypo, .lineSwap:
      return mutateLine(kind, in: bytes)
    }
    return bytes
  }

  /// Replaces the value of the `key: value` line around `at` (or inserts at `at`).
  mutating func replacingValue(in bytes: [UInt8], at: Int, with value: String) -> [UInt8] {
    var lines = lines(of: bytes)
    let candidates = lines.indices.filter { lines[$0].contains(": ") }
    guard let index = candidates.randomElement(using: &random), let colon = lines[index].range(of: ": ")
    else {
      var inserted = bytes
      inserted.insert(contentsOf: Array(value.utf8), at: at)
      return inserted
    }
    lines[index] = String(lines[index][..<colon.upperBound]) + value
    return Array(lines.joined(separator: "\n").utf8)
  }

  mutating func mutateLine(_ kind: Kind, in bytes: [UInt8]) -> [UInt8] {
    var lines = lines(of: bytes)
    guard !lines.isEmpty else { return bytes }
    let index = Int.random(in: 0..<lines.count, using: &random)
    switch kind {
    case .lineDeletion: lines.remove(at: index)
    case .lineDuplication: lines.insert(lines[index], at: index)
    case .indentation:
      let shift = Int.random(in: -4...4, using: &random)
      lines[index] =
        shift >= 0
        ? String(repeating: " ", count: shift) + lines[index]
        : String(lines[index].drop { $0 == " " }.dropFirst(0))
    case .tabs: lines[index] = "\t" + lines[index]
    case .keyTypo:
      if let colon = lines[index].firstIndex(of: ":"), colon > lines[index].startIndex {
        lines[index].insert("x", at: colon)
      }
    case .lineSwap:
      let other = Int.random(in: 0..<lines.count, using: &random)
      lines.swapAt(index, other)
    default: break
    }
    return Array(lines.joined(separator: "\n").utf8)
  }

  func lines(of bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n")
  }
}
