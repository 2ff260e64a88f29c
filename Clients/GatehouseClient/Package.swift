// swift-tools-version:6.0
import PackageDescription

// The Gatehouse client SDK: Foundation only, no dependencies, so an app adding it resolves nothing else.
// `import Gatehouse`; the client is `GatehouseClient`, and every type can be qualified (`Gatehouse.Session`).
let package = Package(
    name: "Gatehouse",
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .macCatalyst(.v16)],
    products: [
        .library(name: "Gatehouse", targets: ["Gatehouse"])
    ],
    targets: [
        .target(name: "Gatehouse"),
        .testTarget(name: "GatehouseTests", dependencies: ["Gatehouse"]),
    ]
)
