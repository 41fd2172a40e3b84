import Foundation
import RinDomain

/// The seeder's draws from a `SplitMix64` stream. It deliberately does not offer the standard
/// library's `random(in:using:)` and `shuffled(using:)`: they may change their algorithms
/// between releases, which would silently change seeded databases; the draws below are ours.
struct SeedRandom {
  private var generator: SplitMix64

  /// An independent stream for one purpose and one entity, so that a user's data does not
  /// depend on how much randomness earlier users consumed or on the commit chunk size.
  init(seed: UInt64, stream: Stream, id: Int64 = 0) {
    let a = SplitMix64.mix(seed &+ 0x9E37_79B9_7F4A_7C15 &* stream.rawValue)
    generator = SplitMix64(seed: SplitMix64.mix(a ^ (UInt64(bitPattern: id) &* 0xD6E8_FEB8_6659_FD93)))
  }

  mutating func next() -> UInt64 { generator.next() }

  /// Uniform in `0..<bound` (Lemire's multiply-shift with rejection: no modulo bias).
  mutating func below(_ bound: Int) -> Int {
    guard bound > 1 else { return 0 }
    let b = UInt64(bound)
    var product = next().multipliedFullWidth(by: b)
    if product.low < b {
      let threshold = (0 &- b) % b
      while product.low < threshold {
        product = next().multipliedFullWidth(by: b)
      }
    }
    return Int(product.high)
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + below(range.upperBound - range.lowerBound + 1)
  }

  /// An instant drawn as `int64` draws its seconds.
  mutating func instant(_ range: ClosedRange<UTCInstant>) -> UTCInstant {
    UTCInstant(seconds: int64(range.lowerBound.seconds...range.upperBound.seconds))
  }

  mutating func int64(_ range: ClosedRange<Int64>) -> Int64 {
    range.lowerBound + Int64(below(Int(range.upperBound - range.lowerBound + 1)))
  }

  /// Uniform in [0, 1) with 53 bits.
  mutating func unit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  mutating func chance(_ probability: Double) -> Bool {
    unit() < probability
  }

  mutating func pick<T>(_ items: [T]) -> T {
    items[below(items.count)]
  }

  /// Picks by integer weights; the order of `items` is part of the seed's meaning.
  mutating func weighted<T>(_ items: [(T, Int)]) -> T {
    let total = items.reduce(0) { $0 + $1.1 }
    var roll = below(total)
    for (item, weight) in items {
      if roll < weight { return item }
      roll -= weight
    }
    return items[items.count - 1].0
  }

  mutating func digits(_ count: Int) -> String {
    var text = ""
    text.reserveCapacity(count)
    for _ in 0..<count { text.append(Character(Unicode.Scalar(UInt8(48 + below(10))))) }
    return text
  }

  /// Standard normal (Box–Muller).
  mutating func normal() -> Double {
    let u1 = max(unit(), 0x1.0p-53)
    let u2 = unit()
    return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }

  /// Fisher–Yates with our own bounded draws.
  mutating func shuffle<T>(_ items: inout [T]) {
    guard items.count > 1 else { return }
    for i in stride(from: items.count - 1, to: 0, by: -1) {
      items.swapAt(i, below(i + 1))
    }
  }

  /// Streams, one per purpose; values are fixed forever (changing one changes seeded data).
  enum Stream: UInt64 {
    case profile = 1, userPhone, contacts, circles, suggestions, invites, social, state, tail, order,
      reminders, requests, patterns
  }
}
