/// `+HH:MM` / `-HH:MM` for an offset from UTC in seconds.
public enum UTCOffset {
  public static func format(_ seconds: Int) -> String {
    let sign = seconds < 0 ? "-" : "+"
    let minutes = abs(seconds) / 60
    return "\(sign)\(LocalDateTime.pad(minutes / 60)):\(LocalDateTime.pad(minutes % 60))"
  }
}
