import RinDomain

/// One measure of a job's runs over the report's period (duration, rows read per second), placed
/// in SVG coordinates. Time runs left to right over the whole period, so a gap is a gap; the
/// value axis starts at 0 and ends at a round number. One run far above the others (a first
/// night, a backfill) would flatten every other point against the floor, so when the largest
/// value is more than three times the upper quartile the axis ends above the quartile instead
/// and the outliers are drawn at the top, marked as cut off.
public struct RunChart: Sendable, Equatable {
  public struct Sample: Sendable, Equatable {
    public var time: UTCInstant
    public var value: Double
    /// A failed or interrupted run, drawn in another shape and colour.
    public var marked: Bool
    public var label: String

    public init(time: UTCInstant, value: Double, marked: Bool = false, label: String = "") {
      self.time = time
      self.value = value
      self.marked = marked
      self.label = label
    }
  }

  public struct Point: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var sample: Sample
    /// Above the axis's end: drawn at the top.
    public var clipped: Bool
  }

  public struct Frame: Sendable, Equatable {
    public var width = 360.0
    public var height = 140.0
    public var left = 52.0
    public var right = 10.0
    public var top = 10.0
    public var bottom = 22.0

    public init() {}

    var plotWidth: Double { width - left - right }
    var plotHeight: Double { height - top - bottom }
    var floor: Double { height - bottom }
  }

  public var frame: Frame
  public var points: [Point]
  /// The value at the top of the axis.
  public var axisEnd: Double
  /// The line through the points, oldest first (SVG path data); empty without points.
  public var path: String

  public static func make(_ samples: [Sample], from: UTCInstant, to: UTCInstant, frame: Frame = Frame())
    -> RunChart
  {
    let ordered = samples.filter { $0.value.isFinite && $0.value >= 0 }.sorted { $0.time < $1.time }
    let end = axisEnd(for: ordered.map(\.value))
    let span = Double(max(to.seconds - from.seconds, 0))
    let points = ordered.map { sample in
      let offset = Double(min(max(sample.time, from), to).seconds - from.seconds)
      let x = frame.left + (span > 0 ? offset / span : 0.5) * frame.plotWidth
      let clipped = sample.value > end
      let y = frame.floor - min(sample.value, end) / end * frame.plotHeight
      return Point(x: x, y: y, sample: sample, clipped: clipped)
    }
    let path = points.enumerated().map { index, point in
      "\(index == 0 ? "M" : "L")\(Self.coordinate(point.x)) \(Self.coordinate(point.y))"
    }.joined(separator: " ")
    return RunChart(frame: frame, points: points, axisEnd: end, path: path)
  }

  /// 1 for no values or only zeros; otherwise a round number (1, 2, 2.5 or 5 times a power of
  /// ten) at or above the largest value, or above three times the upper quartile when the
  /// largest is an outlier.
  static func axisEnd(for values: [Double]) -> Double {
    let sorted = values.sorted()
    guard let largest = sorted.last, largest > 0 else { return 1 }
    var top = largest
    if sorted.count >= 4 {
      let upperQuartile = sorted[(sorted.count * 3) / 4 - 1]
      if upperQuartile > 0, largest > 3 * upperQuartile { top = 3 * upperQuartile }
    }
    return roundUp(top)
  }

  static func roundUp(_ value: Double) -> Double {
    var power = 1.0
    while power * 10 <= value { power *= 10 }
    while power > value { power /= 10 }
    for step in [1.0, 2, 2.5, 5, 10] where step * power >= value * (1 - 1e-12) {
      return step * power
    }
    return 10 * power
  }

  static func coordinate(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    let whole = Int(tenths / 10)
    let fraction = Int(abs(tenths).truncatingRemainder(dividingBy: 10))
    return fraction == 0 ? "\(whole)" : "\(whole).\(fraction)"
  }
}
