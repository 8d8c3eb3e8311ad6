package riskmodel

import (
	"fmt"
	"strings"
)

// This file judges home-automation calls on physical security devices. Unlocking a door,
// disarming an alarm panel, opening a garage door or gate, or switching a security camera
// off disables a security control (docs/policy.md: disabling security controls), and the
// effect is immediate and outside the machine. Lights, climate and media stay as the other
// rules judge them. The device classes are Home Assistant's entity domains (lock,
// alarm_control_panel, cover with device class garage/gate/door, camera; its intents
// HassTurnOff on a lock unlocks, HassTurnOn on a cover opens) and the same capabilities in
// SmartThings (lock, securitySystem, doorControl, garageDoorControl), Homey and openHAB.

// mcpR13HomeServers are home-automation servers.
var mcpR13HomeServers = wordSet{words: `homeassistant home assistant hass ha smartthings homey hubitat homebridge openhab
	homekit domoticz tuya`}

// mcpR13DeviceWords name a physical security device class, by domain, capability or name.
var mcpR13LockWords = wordSet{words: `lock locks deadbolt smartlock`}
var mcpR13AlarmWords = wordSet{words: `alarm alarmcontrolpanel securitysystem security panel`}
var mcpR13GateWords = wordSet{words: `garage garagedoor garagedoorcontrol gate doorcontrol`}
var mcpR13CameraWords = wordSet{words: `camera cameras cam doorbell`}

// mcpR13Unsecure are the action words that open, unlock, disarm or switch off.
var mcpR13OpenWords = wordSet{words: `unlock open disarm off disable turnoff stop`}

// securityDevice names the physical security control a home-automation call weakens.
func (c *mcpCtx) securityDevice() string {
	if !mcpAnyWord(c.serverWords, mcpR13HomeServers.get()) && !mcpContains(c.toolWords, "hass") {
		return ""
	}
	var words []string
	words = append(words, c.toolWords...)
	for _, a := range c.args {
		if a.str && a.depth <= 3 {
			words = append(words, mcpSplitWords(mcpClip(a.val, 256))...)
			if strings.Contains(a.val, ".") { // entity ids: lock.front_door, alarm_control_panel.home
				words = append(words, mcpNormKey(strings.SplitN(a.val, ".", 2)[0]))
			}
		}
	}
	has := func(s *wordSet) bool { return mcpAnyWord(words, s.get()) }
	opens := has(&mcpR13OpenWords)
	on := mcpContains(c.toolWords, "on") || mcpContains(words, "open")
	switch {
	case has(&mcpR13AlarmWords) && mcpContains(words, "alarm") && (opens):
		return "disarms or switches off an alarm system"
	case has(&mcpR13LockWords) && opens:
		return "unlocks a lock"
	case has(&mcpR13GateWords) && (on || mcpContains(words, "open")):
		return "opens a garage door or gate"
	case has(&mcpR13CameraWords) && opens && !mcpContains(words, "open"):
		return "switches off a security camera"
	}
	return ""
}

func (c *mcpCtx) securityDeviceMsg() string {
	if what := c.securityDevice(); what != "" {
		return fmt.Sprintf("%s, which %s: a physical security control", c.call(), what)
	}
	return ""
}
