import MarqueeCore
import XCTest

@testable import MarqueeDisplay

/// What a probe after a hotplug event makes Marquee do, from connector lists as the kernel would
/// give them (no device).
final class HotplugPlanTests: XCTestCase {
    typealias Mode = DRMOutputChoiceTests

    func connector(_ id: UInt32, _ name: String, connected: Bool, modes: [DisplayMode]) -> ConnectorInfo {
        ConnectorInfo(id: id, name: name, isConnected: connected, modes: connected ? modes : [], encoderIDs: [id - 10])
    }

    func resources(_ connectors: [ConnectorInfo]) -> DRMResources {
        DRMResources(
            crtcIDs: [100, 101],
            encoders: [
                EncoderInfo(id: 30, crtcID: 0, possibleCRTCs: 0b11),
                EncoderInfo(id: 31, crtcID: 0, possibleCRTCs: 0b11),
            ],
            connectors: connectors)
    }

    let fullHD = [Mode.mode(1920, 1080, hz: 60, preferred: true), Mode.mode(1280, 720, hz: 60)]
    let hdReady = [Mode.mode(1366, 768, hz: 60, preferred: true), Mode.mode(1280, 720, hz: 60)]

    func wanted(_ connectors: [ConnectorInfo], request: String? = nil, mode: String? = nil, last: String? = "HDMI-A-1")
        -> DRMOutput?
    {
        try? HotplugPlan.wantedOutput(
            devicePath: "/dev/dri/card1", resources: resources(connectors), connector: request,
            mode: mode.flatMap(ModeRequest.init(parsing:)), lastConnector: last
        ).get()
    }

    func testTheTVSwitchedOffIsADisconnectAndNothingElse() throws {
        let current = try XCTUnwrap(wanted([connector(40, "HDMI-A-1", connected: true, modes: fullHD)]))
        let now = wanted([connector(40, "HDMI-A-1", connected: false, modes: fullHD)])
        XCTAssertNil(now)
        XCTAssertEqual(HotplugPlan.steps(current: current, wanted: now), [.disconnect])
        XCTAssertEqual(HotplugPlan.steps(current: nil, wanted: now), [], "still nothing: nothing to do")
    }

    func testTheSameTVBackIsConnectedAtItsPreferredMode() throws {
        let back = try XCTUnwrap(wanted([connector(40, "HDMI-A-1", connected: true, modes: fullHD)]))
        XCTAssertEqual(
            HotplugPlan.steps(current: nil, wanted: back),
            [.connect(connector: "HDMI-A-1", mode: "1920x1080@60", crtcID: 100)])
        XCTAssertEqual(HotplugPlan.steps(current: back, wanted: back), [], "an event that changed nothing does nothing")
    }

    func testAnotherTVWithAnotherPreferredModeIsSetAgainEvenWithoutADisconnectSeen() throws {
        let before = try XCTUnwrap(wanted([connector(40, "HDMI-A-1", connected: true, modes: fullHD)]))
        let after = try XCTUnwrap(wanted([connector(40, "HDMI-A-1", connected: true, modes: hdReady)]))
        XCTAssertEqual(
            HotplugPlan.steps(current: before, wanted: after),
            [.disconnect, .connect(connector: "HDMI-A-1", mode: "1366x768@60", crtcID: 100)])
    }

    func testModeFlagIsKeptOnReconnectAndATVWithoutItStaysDark() {
        let back = wanted([connector(40, "HDMI-A-1", connected: true, modes: fullHD)], mode: "1280x720")
        XCTAssertEqual(back?.mode.name, "1280x720@60")
        let result = HotplugPlan.wantedOutput(
            devicePath: "/dev/dri/card1",
            resources: resources([connector(40, "HDMI-A-1", connected: true, modes: [Mode.mode(1024, 768, hz: 60)])]),
            connector: nil, mode: ModeRequest(parsing: "1280x720"), lastConnector: "HDMI-A-1")
        guard case .failure(let error) = result else { return XCTFail("a TV without the mode asked for was taken") }
        XCTAssertEqual(error.code, .unsupportedRequest)
    }

    func testTheConnectorDrivenLastIsPreferredAndAnotherIsTakenWhenItStaysEmpty() {
        let both = [
            connector(40, "HDMI-A-1", connected: true, modes: fullHD),
            connector(41, "HDMI-A-2", connected: true, modes: hdReady),
        ]
        XCTAssertEqual(wanted(both, last: "HDMI-A-2")?.connector.name, "HDMI-A-2")
        XCTAssertEqual(wanted(both, last: nil)?.connector.name, "HDMI-A-1")
        let secondOnly = [
            connector(40, "HDMI-A-1", connected: false, modes: fullHD),
            connector(41, "HDMI-A-2", connected: true, modes: hdReady),
        ]
        XCTAssertEqual(
            wanted(secondOnly, last: "HDMI-A-1")?.connector.name, "HDMI-A-2", "without --connector, any display")
        XCTAssertNil(wanted(secondOnly, request: "HDMI-A-1"), "--connector HDMI-A-1 waits for that one")
    }
}
