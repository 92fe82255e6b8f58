import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  createCapabilityHub
} from "./chunk-7SQHJC3I.js";
import {
  noCapabilities
} from "./chunk-E33N43T7.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  createCapabilityHub,
  noCapabilities
};
