import RinDomain
import RinTestSupport
import Testing

@testable import RinReport

/// The report's charts place runs in SVG coordinates: time over the whole period, values from 0
/// to a round number, outliers cut off at the top instead of flattening the rest.
@Suite("report charts", .onItsOwnThread)
struct RunChartTests {
  let frame = RunChart.Frame()

  @Test func anEmptyPeriodHasNoPointsNoLineAndAnAxisOfOne() {
    let chart = RunChart.make([], from: UTCInstant(seconds: 0), to: UTCInstant(seconds: 86_400))
    #expect(chart.points.isEmpty)
    #expect(chart.path == "")
    #expect(chart.axisEnd == 1)
  }

  @Test func oneRunSitsAtItsTimeUnderARoundAxis() {
    let chart = RunChart.make(
      [.init(time: UTCInstant(seconds: 43_200), value: 37)], from: UTCInstant(seconds: 0),
      to: UTCInstant(seconds: 86_400))
    let point = try! #require(chart.points.first)
    #expect(chart.axisEnd == 50)
    #expect(point.x == frame.left + frame.plotWidth / 2)
    #expect(abs(point.y - (frame.floor - 37.0 / 50 * frame.plotHeight)) < 1e-9)
    #expect(!point.clipped)
    #expect(chart.path.hasPrefix("M") && !chart.path.contains("L"))
  }

  @Test func aPeriodOfNoLengthPutsItsRunsInTheMiddle() {
    let chart = RunChart.make(
      [.init(time: UTCInstant(seconds: 5), value: 1)], from: UTCInstant(seconds: 5),
      to: UTCInstant(seconds: 5))
    #expect(chart.points.first?.x == frame.left + frame.plotWidth / 2)
  }

  @Test func anOutlierIsCutOffAtTheTopAndTheOthersKeepTheirHeight() {
    let samples = [3.0, 4, 5, 4, 400].enumerated().map {
      RunChart.Sample(time: UTCInstant(seconds: Int64($0) * 100), value: $1)
    }
    let chart = RunChart.make(samples, from: UTCInstant(seconds: 0), to: UTCInstant(seconds: 400))
    // Upper quartile 4: the axis ends at 3 × 4 = 12, rounded up to 20, not at 400.
    #expect(chart.axisEnd == 20)
    let clipped = chart.points.filter(\.clipped)
    #expect(clipped.map(\.sample.value) == [400])
    #expect(clipped.first?.y == frame.top)
    let lowest = chart.points.map(\.y).max() ?? 0
    #expect(frame.floor - lowest > frame.plotHeight / 10, "the ordinary runs are not flattened")
  }

  @Test func noOutlierWhenValuesAreCloseOrFew() {
    #expect(RunChart.axisEnd(for: [10, 11, 12, 30]) == 50)
    #expect(RunChart.axisEnd(for: [1, 1000]) == 1000, "fewer than four runs: nothing is an outlier")
    #expect(RunChart.axisEnd(for: [0, 0, 0]) == 1)
  }

  @Test func axisEndsAreRoundNumbers() {
    #expect(RunChart.roundUp(0.3) == 0.5)
    #expect(RunChart.roundUp(1) == 1)
    #expect(RunChart.roundUp(1.01) == 2)
    #expect(RunChart.roundUp(2.2) == 2.5)
    #expect(RunChart.roundUp(7) == 10)
    #expect(RunChart.roundUp(21_850) == 25_000)
  }

  @Test func runsOutsideThePeriodAndNonsenseValuesStayInside() {
    let chart = RunChart.make(
      [
        .init(time: UTCInstant(seconds: -50), value: 2), .init(time: UTCInstant(seconds: 500), value: 2),
        .init(time: UTCInstant(seconds: 10), value: .nan),
      ], from: UTCInstant(seconds: 0), to: UTCInstant(seconds: 100))
    #expect(chart.points.map(\.x) == [frame.left, frame.left + frame.plotWidth])
  }
}
