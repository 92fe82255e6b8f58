import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-JUKANTIN.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-SIXJZZET.js";
import "./chunk-UGEJSRWB.js";
import "./chunk-JTMCR3R3.js";
import "./chunk-WD3LMSGC.js";
import "./chunk-IASWLSEA.js";
import "./chunk-VFLRCTPF.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
