import CLibCrypto

/// Lower-case hex SHA-256, the form of the lookup keys and suggestion fingerprints the tables
/// store. Computed by OpenSSL's libcrypto, which every machine with libcurl already has;
/// swift-crypto would compile its own BoringSSL into every fresh build for this one function.
public enum SHA256Hex {
  private static let hexDigits = Array("0123456789abcdef".utf8)

  public static func of(_ text: String) -> String {
    var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let hashed = Array(text.utf8).withUnsafeBytes { input in
      EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
    }
    // EVP_Digest fails only when libcrypto cannot allocate its context.
    precondition(hashed == 1 && length == 32, "libcrypto's SHA-256 failed")
    var hex: [UInt8] = []
    hex.reserveCapacity(64)
    for byte in digest.prefix(32) {
      hex.append(hexDigits[Int(byte >> 4)])
      hex.append(hexDigits[Int(byte & 0x0f)])
    }
    return String(decoding: hex, as: UTF8.self)
  }
}
