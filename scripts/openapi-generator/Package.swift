// swift-tools-version:6.0
// The OpenAPI generator as a command, pinned, for `scripts/generate-openapi.sh`: the server's generated
// types are committed (Sources/GatehouseAPI/Generated), so an ordinary build never builds the generator.
import PackageDescription

let package = Package(
    name: "gatehouse-openapi-generator",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3")
    ],
    targets: []
)
