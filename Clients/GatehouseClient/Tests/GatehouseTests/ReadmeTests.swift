import Foundation
import Testing

/// The README's install advice and requirements against the package itself: the dependency line must keep a 0.x
/// app below the next minor version (SwiftPM's `from:` is up to the next major, so `from: "0.9.0"` takes
/// 0.10.0), and the toolchain and platforms it states must be the manifest's and the `@available` attributes'.
@Suite("README: the dependency line and the requirements match the package")
struct ReadmeTests {
    /// The package's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String { try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) }

    /// The README's `## Requirements` section.
    static func requirements() throws -> String {
        let readme = try text("README.md")
        guard let start = readme.range(of: "\n## Requirements\n") else { return "" }
        let rest = readme[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// `"iOS 17"`-style names of an `@available` attribute's or the manifest's platforms.
    static func platforms(in text: String, pattern: String) throws -> [String] {
        let names = ["iOS": "iOS", "macOS": "macOS", "tvOS": "tvOS", "watchOS": "watchOS", "macCatalyst": "Mac Catalyst"]
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let os = Range(match.range(at: 1), in: text), let version = Range(match.range(at: 2), in: text) else { return nil }
            return names[String(text[os])].map { "\($0) \(text[version])" }
        }
    }

    @Test func theDependencyLineStaysBelowTheNextMinorVersion() throws {
        let readme = try Self.text("README.md")
        let lines = readme.split(separator: "\n").filter { $0.contains(".package(url:") && $0.contains("gatehouse-swift") }
        #expect(!lines.isEmpty)
        for line in lines { #expect(line.contains(".upToNextMinor(from: \"0."), "\(line)") }
        #expect(!readme.contains(#"from: "0.9.0"),"#), "a bare from: takes every 0.x version")
        #expect(readme.contains("*Up to Next Minor Version*"), "the same rule in Xcode")
    }

    @Test func theToolchainIsTheManifests() throws {
        let manifest = try Self.text("Package.swift")
        #expect(manifest.hasPrefix("// swift-tools-version:6.0"))
        let requirements = try Self.requirements()
        #expect(requirements.contains("Xcode 16") && requirements.contains("Swift 6"))
    }

    @Test func thePlatformsAreTheManifestsAndAuthModelsAvailability() throws {
        // Each bullet's first sentence, which states the versions (later ones may quote other code).
        let requirements = try Self.requirements().components(separatedBy: "\n- ").map {
            String($0.replacingOccurrences(of: "\n  ", with: " ").split(separator: ". ").first ?? "")
        }
        let client = try #require(requirements.first { $0.contains("`GatehouseClient`") })
        for platform in try Self.platforms(in: Self.text("Package.swift"), pattern: #"\.(iOS|macOS|tvOS|watchOS|macCatalyst)\(\.v(\d+)\)"#) {
            #expect(client.contains(platform), "the README's client requirements lack \(platform)")
        }
        let model = try #require(requirements.first { $0.contains("`AuthModel`") })
        let available = #"(iOS|macOS|tvOS|watchOS) (\d+)"#
        let attributes = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources/Gatehouse").path)
            .flatMap { try Self.text("Sources/Gatehouse/\($0)").split(separator: "\n").filter { $0.contains("@available(") } }
        let modelAttribute = try #require(
            try Self.text("Sources/Gatehouse/AuthModel.swift").split(separator: "\n").first { $0.contains("@available(") }
        )
        #expect(Set(attributes) == [modelAttribute], "every @available in the SDK is AuthModel's")
        for platform in try Self.platforms(in: String(modelAttribute), pattern: available) {
            #expect(model.contains(platform), "the README's AuthModel requirements lack \(platform)")
        }
    }
}
