/// 64-bit FNV-1a over text fields: fast and the same in every process.
package struct FNV1a {
  package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  package init() {}

  package mutating func separate(_ byte: UInt8) { mix(byte) }

  /// A field and a separator, so ("ab", "c") and ("a", "bc") differ; nil differs from "".
  package mutating func add(_ text: String?) {
    guard let text else {
      mix(0x1F)
      mix(0x00)
      return
    }
    for byte in text.utf8 { mix(byte) }
    mix(0x1E)
  }

  private mutating func mix(_ byte: UInt8) {
    value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
  }
}
