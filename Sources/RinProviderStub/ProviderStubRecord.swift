/// One request as the stub received it, for tests to check what was sent and when.
public struct ProviderStubRecord: Sendable {
  /// Unix seconds with sub-second precision, taken when the request was read.
  public var receivedAt: Double
  public var ids: [String]
  /// The items as sent (`id` and `email` or `phone`).
  public var items: [[String: String]]
  public var authorization: String?
  public var behaviour: ProviderStubBehaviour
  /// The keys this response answered (a match or a 404, sent back without delay); a key the
  /// client is told about must never be asked for again.
  public var answeredIDs: [String]
}
