import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  createCapabilityHub
} from "./chunk-IUB4ANJS.js";
import {
  noCapabilities
} from "./chunk-WFUTEVU3.js";
import "./chunk-UBTQZF52.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  createCapabilityHub,
  noCapabilities
};
