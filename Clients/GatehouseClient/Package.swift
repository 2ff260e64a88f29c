// swift-tools-version:6.0
import PackageDescription

// The Gatehouse client SDK: Foundation only, so an app adding it pulls no server package.
let package = Package(
    name: "GatehouseClient",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "GatehouseClient", targets: ["GatehouseClient"])
    ],
    targets: [
        .target(name: "GatehouseClient"),
        .testTarget(name: "GatehouseClientTests", dependencies: ["GatehouseClient"]),
    ]
)
