import CDRM
import MarqueeCore
import XCTest

@testable import MarqueeDisplay

/// Connector, mode and CRTC choice from plain values (what the kernel would list), no device.
final class DRMOutputChoiceTests: XCTestCase {
    static func mode(_ width: Int, _ height: Int, hz: Double, preferred: Bool = false) -> DisplayMode {
        var info = drmModeModeInfo()
        info.hdisplay = UInt16(width)
        info.vdisplay = UInt16(height)
        info.htotal = UInt16(width + 280)
        info.vtotal = UInt16(height + 45)
        info.clock = UInt32((Double(info.htotal) * Double(info.vtotal) * hz / 1000).rounded())
        info.vrefresh = UInt32(hz.rounded())
        if preferred { info.type = UInt32(DRM_MODE_TYPE_PREFERRED) }
        return DisplayMode(info)
    }

    let tv = ConnectorInfo(
        id: 40, name: "HDMI-A-1", isConnected: true,
        modes: [mode(1280, 720, hz: 60), mode(1920, 1080, hz: 60, preferred: true), mode(1920, 1080, hz: 50)],
        encoderIDs: [30])
    let empty = ConnectorInfo(id: 41, name: "HDMI-A-2", isConnected: false, modes: [], encoderIDs: [31])
    let writeback = ConnectorInfo(
        id: 42, name: "Writeback-1", isConnected: true, isWriteback: true, modes: [mode(640, 480, hz: 60)],
        encoderIDs: [32])

    var resources: DRMResources {
        DRMResources(
            crtcIDs: [100, 101],
            encoders: [
                EncoderInfo(id: 30, crtcID: 0, possibleCRTCs: 0b01),
                EncoderInfo(id: 31, crtcID: 0, possibleCRTCs: 0b10),
                EncoderInfo(id: 32, crtcID: 0, possibleCRTCs: 0b11),
            ],
            connectors: [empty, writeback, tv])
    }

    func testTheFirstConnectedDisplayAndItsPreferredModeAreTaken() throws {
        let output = try DRMOutput.choose(on: "/dev/dri/card0", resources: resources, connector: nil, mode: nil)
        XCTAssertEqual(output.connector.name, "HDMI-A-1", "not the writeback connector, not the empty one")
        XCTAssertEqual(output.mode.description, "1920x1080@60 (preferred)")
        XCTAssertEqual(output.crtcID, 100)
        XCTAssertEqual(output.crtcIndex, 0)
    }

    func testModeRequestsPickSizeAndRate() throws {
        XCTAssertEqual(
            try DRMOutput.chooseMode(ModeRequest(parsing: "1920x1080@50"), of: tv).description, "1920x1080@50")
        XCTAssertEqual(try DRMOutput.chooseMode(ModeRequest(parsing: "1280x720"), of: tv).description, "1280x720@60")
        XCTAssertThrowsError(try DRMOutput.chooseMode(ModeRequest(parsing: "800x600"), of: tv)) { error in
            let error = error as! DisplayError
            XCTAssertEqual(error.code, .unsupportedRequest)
            XCTAssertEqual(
                error.message,
                "HDMI-A-1 does not offer the mode 800x600; it offers: 1280x720@60, 1920x1080@60 (preferred), 1920x1080@50"
            )
        }
    }

    func testANamedConnectorWithoutADisplayIsNoDisplayAndAnUnknownNameListsTheConnectors() {
        XCTAssertThrowsError(
            try DRMOutput.choose(on: "/dev/dri/card0", resources: resources, connector: "HDMI-A-2", mode: nil)
        ) {
            XCTAssertEqual(($0 as! DisplayError).code, .noDisplay)
        }
        XCTAssertThrowsError(
            try DRMOutput.choose(on: "/dev/dri/card0", resources: resources, connector: "DSI-1", mode: nil)
        ) {
            XCTAssertEqual(
                ($0 as! DisplayError).message,
                "/dev/dri/card0 has no connector DSI-1; its connectors: HDMI-A-2 (disconnected), HDMI-A-1 (connected)")
        }
        var nothing = resources
        nothing.connectors = [empty]
        XCTAssertThrowsError(try DRMOutput.choose(on: "/dev/dri/card0", resources: nothing, connector: nil, mode: nil))
        {
            XCTAssertEqual(($0 as! DisplayError).code, .noDisplay)
        }
    }

    func testTheCRTCAlreadyDrivingTheConnectorIsKept() throws {
        var driven = resources
        driven.encoders[0].crtcID = 0  // encoder 30 idle…
        driven.connectors[2].currentEncoderID = 32  // …the TV driven through encoder 32 on CRTC 101
        driven.encoders[2].crtcID = 101
        let output = try DRMOutput.choose(on: "/dev/dri/card0", resources: driven, connector: "hdmi-a-1", mode: nil)
        XCTAssertEqual(output.crtcID, 101)
        XCTAssertEqual(output.crtcIndex, 1)
    }

    func testAConnectorNoEncoderCanFeedHasNoCRTC() {
        var stranded = resources
        stranded.encoders[0].possibleCRTCs = 0
        XCTAssertThrowsError(try DRMOutput.choose(on: "/dev/dri/card0", resources: stranded, connector: nil, mode: nil))
        {
            XCTAssertEqual(($0 as! DisplayError).message, "no CRTC of /dev/dri/card0 can drive HDMI-A-1")
        }
    }

    func testMissingAtomicPropertiesAreAllNamedAtStart() {
        let plane = DRMObjectProperties(
            object: "plane 33",
            entries: [
                "FB_ID": .init(id: 1, value: 0), "CRTC_ID": .init(id: 2, value: 0), "SRC_X": .init(id: 3, value: 0),
            ])
        XCTAssertThrowsError(try PlaneProperties(plane)) {
            XCTAssertEqual(
                ($0 as! DisplayError).message,
                "the driver's plane 33 lacks the atomic properties SRC_Y, SRC_W, SRC_H, CRTC_X, CRTC_Y, CRTC_W, CRTC_H; try --no-atomic"
            )
        }
        let crtc = DRMObjectProperties(
            object: "CRTC 36", entries: ["ACTIVE": .init(id: 20, value: 1), "MODE_ID": .init(id: 21, value: 0)])
        XCTAssertEqual(try CRTCProperties(crtc).active, 20)
        XCTAssertEqual(try CRTCProperties(crtc).modeID, 21)
    }

    func testPanelOrientationGivesTheRotationTheKernelConsoleUses() {
        func rotation(_ name: String?) -> Rotation? {
            var entries: [String: DRMObjectProperties.Entry] = ["DPMS": .init(id: 2, value: 0)]
            if let name { entries["panel orientation"] = .init(id: 9, value: 1, enumName: name) }
            return ConnectorProperties(DRMObjectProperties(object: "connector 40", entries: entries)).panelRotation
        }
        XCTAssertNil(rotation(nil), "no property: no turn")
        XCTAssertNil(rotation("Normal"))
        XCTAssertEqual(rotation("Upside Down"), .half)
        XCTAssertEqual(rotation("Right Side Up"), .quarter)
        XCTAssertEqual(rotation("Left Side Up"), .threeQuarters)
    }
}
