// swift-tools-version:6.0
import PackageDescription

/// `RIN_OPTIMIZE=1 swift build`: our modules optimized in a debug build (`@testable`, the same
/// bin path), the test targets and the dependencies not; scripts/test.sh sets it. The test suite
/// is CPU-bound and its time is in the jobs and the storage module; compiling everything
/// optimized (`-Xswiftc -O`) cost half again the compile for less (docs/RELIABILITY.md "What
/// the suite costs"). Unset, a plain `swift build` stays a quick unoptimized one.
let optimized = Context.environment["RIN_OPTIMIZE"] == "1"
let swiftSettings: [SwiftSetting] = [.swiftLanguageMode(.v6)]
/// Our production modules and executables.
let moduleSwiftSettings: [SwiftSetting] =
  swiftSettings + (optimized ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : [])
/// Fixture code, optimized even in debug builds: the seeder generates, and the tests' support
/// hashes and copies, hundreds of thousands of rows per test run, which unoptimized code made
/// a large share of the test suite's time. Nobody steps through them in a debugger.
let fixtureSwiftSettings: [SwiftSetting] =
  swiftSettings + [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// One thin executable per job: `rin-X ARGS` is `rinjobs run X ARGS`.
let jobNames = [
  "daily-score", "circle-patterns", "enrichment-fetch",
  "upcoming-birthdays", "attribution-expiry", "badge-recount", "history-retention",
]
let jobExecutables: [Target] = jobNames.map { name in
  .executableTarget(
    name: "rin-\(name)",
    dependencies: ["RinCLI"],
    path: "jobs/\(name)",
    swiftSettings: moduleSwiftSettings
  )
}

/// A test target over the shared support: the modules it tests, GRDB to read databases directly.
func testTarget(_ name: String) -> Target {
  .testTarget(
    name: name,
    dependencies: [
      "RinTestSupport", "RinCLI", "RinConfiguration", "RinDomain", "RinJobs", "RinNormalize", "RinReport",
      "RinRuntime",
      "RinSeed", "RinStorage", "RinHTTP", "RinProviderClient", "RinProviderStub",
      .product(name: "GRDB", package: "GRDB.swift"),
      "CLibPQ", "CRinShim",
      .product(name: "Logging", package: "swift-log"),
    ],
    swiftSettings: swiftSettings
  )
}

let package = Package(
  name: "rin-jobs",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "rinjobs", targets: ["rinjobs"]),
    .executable(name: "rinjobs-dev", targets: ["rinjobs-dev"]),
  ]
    + jobNames.map { .executable(name: "rin-\($0)", targets: ["rin-\($0)"]) },
  dependencies: [
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
  ],
  targets: [
    // The only module that imports a database library.
    .target(
      name: "RinStorage",
      dependencies: [
        "RinDomain", "CLibPQ", .product(name: "GRDB", package: "GRDB.swift"),
        // SQLite's C API, for the bulk loader's and the executor's direct statement calls.
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ],
      swiftSettings: moduleSwiftSettings
    ),
    // libpq, PostgreSQL's C client (scripts/setup.sh installs libpq-dev): a synchronous executor
    // beside GRDB's, behind the same `SQLExecutor` seam.
    .systemLibrary(name: "CLibPQ"),
    // OpenSSL's libcrypto (libssl-dev): SHA-256 for lookup keys and suggestion fingerprints.
    .systemLibrary(name: "CLibCrypto"),
    // Pure domain rules: no I/O.
    .target(
      name: "RinDomain",
      dependencies: ["CLibCrypto"],
      swiftSettings: moduleSwiftSettings
    ),
    // A plain C face on libphonenumber and libpsl (Debian packages that scripts/setup.sh installs).
    .target(
      name: "CRinShim",
      linkerSettings: [.linkedLibrary("phonenumber"), .linkedLibrary("protobuf"), .linkedLibrary("psl")]
    ),
    // Phone, email and name normalization: pure computation, shared by the jobs that need it.
    .target(name: "RinNormalize", dependencies: ["CRinShim"], swiftSettings: moduleSwiftSettings),
    // The enrichment provider's bulk protocol over HTTP (FoundationNetworking: libcurl on Linux).
    // RinDomain for the one JSON string escaper it shares with RinStorage.
    // Outgoing HTTP behind a protocol: the provider's requests, the pings, the Pushgateway push.
    .target(name: "RinHTTP", swiftSettings: moduleSwiftSettings),
    .target(
      name: "RinProviderClient", dependencies: ["RinDomain", "RinHTTP"], swiftSettings: moduleSwiftSettings),
    // A real HTTP server on loopback that speaks the provider's protocol, for tests and demos.
    .target(
      name: "RinProviderStub",
      dependencies: [
        "RinDomain",
        .product(name: "FlyingFox", package: "FlyingFox"),
        // Its socket pool switches Nagle off (NoDelaySocketPool.swift).
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ],
      swiftSettings: moduleSwiftSettings
    ),
    // Config, schedules, the ledger, leases, checkpoints, dry run, logging: what runs a job.
    // Settings and schedules: the YAML config, cron expressions, pipelines' slots and zones.
    .target(
      name: "RinConfiguration",
      dependencies: ["RinDomain", "RinStorage", "Yams"],
      swiftSettings: moduleSwiftSettings
    ),
    .target(
      name: "RinRuntime",
      dependencies: [
        "RinConfiguration",
        "RinDomain",
        "RinStorage",
        // The pipelines' notify pings and the Pushgateway push go through its HTTPTransport.
        "RinHTTP",
        "Yams",
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: moduleSwiftSettings
    ),
    // What the runs tell an operator afterwards: run and pipeline summaries as text, the
    // Prometheus textfile, the HTML report. Nothing in a run depends on it.
    .target(
      name: "RinReport",
      dependencies: [
        "RinConfiguration", "RinDomain", "RinJobs", "RinRuntime", "RinStorage",
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "Mustache", package: "swift-mustache"),
      ],
      swiftSettings: moduleSwiftSettings
    ),
    // Deterministic synthetic data; writes through the storage module's bulk API.
    .target(name: "RinSeed", dependencies: ["RinDomain", "RinStorage"], swiftSettings: fixtureSwiftSettings),
    // The seven jobs: orchestration of domain rules over storage.
    .target(
      name: "RinJobs",
      dependencies: [
        "RinConfiguration", "RinDomain", "RinHTTP", "RinNormalize", "RinProviderClient", "RinRuntime",
        "RinStorage",
        // prctl(PR_SET_DUMPABLE) for enrichment-fetch, which holds the provider's key.
        "CRinShim",
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: moduleSwiftSettings
    ),
    // The production command tree, shared by `rinjobs` and the `rin-X` executables: what cron,
    // Kubernetes and an operator run. It links no seeder and no provider stub.
    .target(
      name: "RinCLI",
      dependencies: [
        "RinConfiguration", "RinDomain", "RinJobs", "RinReport", "RinRuntime", "RinStorage",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: moduleSwiftSettings
    ),
    .executableTarget(name: "rinjobs", dependencies: ["RinCLI"], swiftSettings: moduleSwiftSettings),
    // Development and demo commands (seed, demo, provider-stub), kept out of what production runs.
    .executableTarget(
      name: "rinjobs-dev",
      dependencies: [
        "RinCLI", "RinConfiguration", "RinDomain", "RinJobs", "RinProviderStub", "RinReport", "RinRuntime",
        "RinSeed",
        "RinStorage",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: moduleSwiftSettings
    ),
    // What every test target shares: real databases (a SQLite file, a throwaway PostgreSQL
    // cluster), the package's executables run as processes, temporary folders.
    .target(
      name: "RinTestSupport",
      dependencies: [
        "RinConfiguration", "RinDomain", "RinJobs", "RinNormalize", "RinReport", "RinRuntime", "RinSeed",
        "RinStorage",
        // Tests read the database directly, independently of the storage module they check.
        .product(name: "GRDB", package: "GRDB.swift"), "CLibPQ",
        // SQLite's C API: the PostgreSQL snapshot binds libpq's values straight into SQLite.
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Tests/RinTestSupport",
      swiftSettings: fixtureSwiftSettings
    ),
    // Test targets by cost: `swift test` runs them all; `--filter RinUnitTests` is the quick loop.
    // Pure rules, parsing and formatting: no database, no process, no network.
    testTarget("RinUnitTests"),
    // Storage, the jobs, pipelines and the command line on both backends, through real files,
    // a real PostgreSQL cluster and the real executables.
    testTarget("RinIntegrationTests"),
    // The enrichment provider's protocol, enrichment-fetch and notify pings against real HTTP
    // servers on loopback.
    testTarget("RinProviderTests"),
    // kill -9, SIGTERM, concurrent runs, database faults, hostile rows, mutated configs.
    testTarget("RinReliabilityTests"),
  ] + jobExecutables,
  cxxLanguageStandard: .cxx17
)
