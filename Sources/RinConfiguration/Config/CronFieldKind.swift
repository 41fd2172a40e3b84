/// The five cron fields in order, with their ranges and the names some of them accept.
enum CronFieldKind: CaseIterable {
  case minute, hour, dayOfMonth, month, dayOfWeek

  var name: String {
    switch self {
    case .minute: "minute"
    case .hour: "hour"
    case .dayOfMonth: "day-of-month"
    case .month: "month"
    case .dayOfWeek: "day-of-week"
    }
  }

  /// Day-of-week accepts 7 as a second Sunday, as Vixie cron does; it is folded to 0 later.
  var range: ClosedRange<Int> {
    switch self {
    case .minute: 0...59
    case .hour: 0...23
    case .dayOfMonth: 1...31
    case .month: 1...12
    case .dayOfWeek: 0...7
    }
  }

  /// Names map to `range.lowerBound + index`.
  var names: [String] {
    switch self {
    case .month: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
    case .dayOfWeek: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]
    default: []
    }
  }
}
