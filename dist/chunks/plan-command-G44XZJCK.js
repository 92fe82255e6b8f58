import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-RHWUZPEM.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-TJWLEI3U.js";
import "./chunk-UF4HOW3Z.js";
import "./chunk-JTMCR3R3.js";
import "./chunk-WD3LMSGC.js";
import "./chunk-V2Q2GB2I.js";
import "./chunk-UBTQZF52.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
