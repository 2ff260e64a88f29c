import Foundation
import Testing

@testable import GatehouseAWS

/// AWS's published Signature Version 4 test suite (aws-sig-v4-test-suite): credentials
/// AKIDEXAMPLE / wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, region us-east-1, service "service",
/// 2015-08-30T12:36:00Z. The expected values are AWS's.
@Suite("SigV4 against AWS's test suite")
struct SigV4SignerTests {
    static let date = Date(timeIntervalSince1970: 1_440_938_160)  // 20150830T123600Z
    static let credentials = SigV4Signer.Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    static let signer = SigV4Signer(credentials: credentials, region: "us-east-1", service: "service")
    static let baseHeaders = [("Host", "example.amazonaws.com"), ("X-Amz-Date", "20150830T123600Z")]

    static func authorization(
        _ method: String,
        _ path: String,
        query: [(String, String)] = [],
        headers: [(String, String)] = baseHeaders,
        body: String = "",
        signer: SigV4Signer = signer
    ) -> String {
        signer.authorization(for: .init(method: method, path: path, query: query, headers: headers, body: Array(body.utf8)), date: date)
    }

    static func signature(of authorization: String) -> String {
        String(authorization.split(separator: "=").last ?? "")
    }

    @Test func getVanilla() {
        let request = SigV4Signer.Request(method: "GET", path: "/", headers: Self.baseHeaders, body: [])
        #expect(
            SigV4Signer.canonicalRequest(request).text == """
                GET
                /

                host:example.amazonaws.com
                x-amz-date:20150830T123600Z

                host;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """
        )
        #expect(
            Self.signer.stringToSign(canonicalRequest: SigV4Signer.canonicalRequest(request).text, date: Self.date).hasSuffix(
                "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63"
            )
        )
        #expect(
            Self.signer.signingKey(day: "20150830").withUnsafeBytes { SigV4Signer.hex($0) }
                == "938127b5336810ddb6a5d6af445fcac9e371f9ed418ed386b022aed82901be75"
        )
        #expect(
            Self.authorization("GET", "/")
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
        )
    }

    @Test func postVanilla() {
        #expect(Self.signature(of: Self.authorization("POST", "/")) == "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b")
    }

    @Test func queryOrderKeyCase() {
        let auth = Self.authorization("GET", "/", query: [("Param2", "value2"), ("Param1", "value1")])
        #expect(Self.signature(of: auth) == "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500")
    }

    @Test func utf8Path() {
        #expect(Self.signature(of: Self.authorization("GET", "/\u{1234}")) == "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85")
        #expect(Self.signature(of: Self.authorization("GET", "/%E1%88%B4")) == "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85")
    }

    @Test func headerValueTrim() {
        let headers = Self.baseHeaders + [("My-Header1", " value1"), ("My-Header2", " \"a   b   c\"")]
        #expect(
            Self.signature(of: Self.authorization("GET", "/", headers: headers)) == "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"
        )
    }

    @Test func formBody() {
        let headers = [("Content-Type", "application/x-www-form-urlencoded")] + Self.baseHeaders
        let auth = Self.authorization("POST", "/", headers: headers, body: "Param1=value1")
        #expect(auth.contains("SignedHeaders=content-type;host;x-amz-date,"))
        #expect(Self.signature(of: auth) == "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a")
    }

    @Test func relativePathIsNormalised() {
        #expect(Self.authorization("GET", "/example/..") == Self.authorization("GET", "/"))
        #expect(Self.authorization("GET", "/./") == Self.authorization("GET", "/"))
    }

    @Test func sessionToken() {
        let signer = SigV4Signer(
            credentials: .init(
                accessKeyID: "AKIDEXAMPLE",
                secretAccessKey: Self.credentials.secretAccessKey,
                sessionToken: "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267"
            ),
            region: "us-east-1",
            service: "service"
        )
        let added = signer.signatureHeaders(
            for: .init(method: "GET", path: "/", headers: [("Host", "example.amazonaws.com")], body: []),
            date: Self.date
        )
        #expect(added.first { $0.0 == "X-Amz-Security-Token" }?.1 == "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267")
        let auth = added.first { $0.0 == "Authorization" }?.1 ?? ""
        #expect(
            auth
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date;x-amz-security-token, Signature=07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8"
        )
    }

    @Test func credentialsFromTheEnvironment() {
        #expect(SigV4Signer.Credentials.fromEnvironment([:]) == nil)
        #expect(
            SigV4Signer.Credentials.fromEnvironment(["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b", "AWS_SESSION_TOKEN": "c"])
                == .init(accessKeyID: "a", secretAccessKey: "b", sessionToken: "c")
        )
    }
}
