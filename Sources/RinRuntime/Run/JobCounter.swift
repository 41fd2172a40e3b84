/// A key a run's summary counts rows under, in `read` or in `skipped` (and `--json`'s): each job
/// lists its own in one enum, so that a key is written once and a misspelt one does not compile.
public protocol JobCounter: Sendable {
  var key: String { get }
}

extension JobCounter where Self: RawRepresentable, RawValue == String {
  public var key: String { rawValue }
}
