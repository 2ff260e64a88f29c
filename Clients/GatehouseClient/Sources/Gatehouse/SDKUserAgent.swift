import Foundation

/// The `User-Agent` the SDK sends with its own requests (never with ``GatehouseClient/send(_:token:)``'s requests to
/// your API): `GatehouseSDK/swift (iOS 17.2)`, so the user's session list can say "Gatehouse SDK on iOS". It names
/// the platform and the OS's major and minor version, nothing about the app or the device.
enum SDKUserAgent {
    /// The header's value.
    static let value: String = {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return "GatehouseSDK/swift (\(platform) \(version.majorVersion).\(version.minorVersion))"
    }()

    /// The platform's name as the server's device names spell it.
    static var platform: String {
        #if targetEnvironment(macCatalyst)
        return "macOS"
        #elseif os(iOS)
        return "iOS"
        #elseif os(macOS)
        return "macOS"
        #elseif os(tvOS)
        return "tvOS"
        #elseif os(watchOS)
        return "watchOS"
        #elseif os(visionOS)
        return "visionOS"
        #elseif os(Linux)
        return "Linux"
        #else
        return "unknown"
        #endif
    }
}
