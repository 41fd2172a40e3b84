import CLibCrypto

/// Lower-case hex SHA-256, the form of the lookup keys and suggestion fingerprints the tables
/// store. Computed by OpenSSL's libcrypto, which every machine with libcurl already has;
/// swift-crypto would compile its own BoringSSL into every fresh build for this one function.
public enum SHA256Hex {
  private static let hexDigits = Array("0123456789abcdef".utf8)
  /// Fetched once: `EVP_sha256()` makes OpenSSL 3 look the algorithm up again on every digest
  /// (533 against 200 ns for a 24-byte key, measured on these machines). A fetched `EVP_MD` is
  /// immutable and safe to share among threads.
  private nonisolated(unsafe) static let algorithm = EVP_MD_fetch(nil, "SHA256", nil)

  public static func of(_ text: String) -> String {
    digest(text) { digest in
      String(unsafeUninitializedCapacity: 64) { hex in
        for index in 0..<32 {
          hex[2 * index] = hexDigits[Int(digest[index] >> 4)]
          hex[2 * index + 1] = hexDigits[Int(digest[index] & 0x0f)]
        }
        return 64
      }
    }
  }

  /// The digest of the text's UTF-8 as four big-endian 64-bit words, each read as a signed
  /// number: the form the lookup cache keeps it in (`LookupCacheKey`).
  public static func words(_ text: String) -> [Int64] {
    digest(text) { digest in
      (0..<4).map { word in
        var value: UInt64 = 0
        for index in 0..<8 { value = value << 8 | UInt64(digest[8 * word + index]) }
        return Int64(bitPattern: value)
      }
    }
  }

  private static func digest<Result>(_ text: String, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Result)
    -> Result
  {
    var text = text
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(EVP_MAX_MD_SIZE)) { digest in
      var length: UInt32 = 0
      let hashed = text.withUTF8 { input in
        EVP_Digest(input.baseAddress, input.count, digest.baseAddress, &length, algorithm, nil)
      }
      // EVP_Digest fails only when libcrypto cannot allocate its context or has no SHA-256.
      precondition(hashed == 1 && length == 32, "libcrypto's SHA-256 failed")
      return body(digest)
    }
  }
}
