// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "gatehouse",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "gatehouse", targets: ["gatehouse"]),
        .library(name: "GatehouseServer", targets: ["GatehouseServer"]),
        .library(name: "GatehouseCore", targets: ["GatehouseCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        .target(name: "GatehouseCore", dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "GatehouseStore", dependencies: [
            "GatehouseCore",
            .product(name: "SQLKit", package: "sql-kit"),
            .product(name: "SQLiteKit", package: "sqlite-kit"),
            .product(name: "SQLiteNIO", package: "sqlite-nio"),
            .product(name: "PostgresKit", package: "postgres-kit"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
        .target(name: "GatehouseAWS", dependencies: [
            "GatehouseCore",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "GatehouseServer", dependencies: [
            "GatehouseCore", "GatehouseStore", "GatehouseAWS",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ], resources: [
            // Embedded at build time: a copied `gatehouse` binary serves the contract and the web page on its own.
            .embedInCode("Resources/openapi.yaml"),
            .embedInCode("Resources/Web/index.html"),
            .embedInCode("Resources/Web/app.js"),
            .embedInCode("Resources/Web/app.css"),
        ]),
        .executableTarget(name: "gatehouse", dependencies: [
            "GatehouseServer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "gatehouse-microbench", dependencies: ["GatehouseCore",
            .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto")]),
        .target(name: "GatehouseTesting", dependencies: [
            "GatehouseCore", "GatehouseStore",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),
        .testTarget(name: "GatehouseCoreTests", dependencies: ["GatehouseCore", "GatehouseTesting"]),
        .testTarget(name: "GatehouseAWSTests", dependencies: ["GatehouseAWS", "GatehouseTesting"]),
        .testTarget(name: "GatehouseStoreTests", dependencies: ["GatehouseStore", "GatehouseTesting"]),
        .testTarget(name: "GatehousePoolTests", dependencies: ["GatehouseCore", "GatehouseStore", "GatehouseTesting"]),
        .testTarget(name: "GatehouseServerTests", dependencies: [
            "GatehouseServer", "GatehouseTesting",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ], exclude: ["Scripts"]),  // Python helpers the tests run by path (PyJWT, openapi-spec-validator)
    ]
)
