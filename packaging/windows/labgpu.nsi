; LabGPU installer for Windows: per-user, no administrator rights (lab PCs).
;
;   makensis /DVERSION=0.1.0 /DVERSION4=0.1.0.0 /DSRCDIR=dist\LabGPU /DOUTFILE=dist\LabGPU-Setup-0.1.0.exe
;            [/DICON=build\pyinstaller\labgpu\icons\labgpu.ico] [/DFAST] packaging\windows\labgpu.nsi
;
; packaging/build.py passes these on Windows; on Linux the test suite compiles this same script with
; Debian's makensis over the Linux bundle (/DFAST: stored, not compressed) with warnings as errors.
; Installs to %LOCALAPPDATA%\Programs\LabGPU; Start-menu entry; optional desktop shortcut and start at
; login (HKCU Run). The uninstaller keeps the user's settings and data (%LOCALAPPDATA%\labgpu) unless
; its "Remove my settings and data" box is ticked; cloud keys in Credential Manager are never touched.

Unicode true

!ifndef VERSION
  !error "pass /DVERSION=x.y.z"
!endif
!ifndef VERSION4
  !error "pass /DVERSION4=x.y.z.w"
!endif
!ifndef SRCDIR
  !error "pass /DSRCDIR=<the one-folder bundle, dist\LabGPU>"
!endif
!ifndef OUTFILE
  !define OUTFILE "LabGPU-Setup-${VERSION}.exe"
!endif

!ifdef FAST
  SetCompress off
!else
  SetCompressor /SOLID lzma
!endif

!define APP "LabGPU"
!define EXE "LabGPU.exe"
!define CLI "labgpu-cli.exe"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\LabGPU"
!define RUN_KEY "Software\Microsoft\Windows\CurrentVersion\Run"
; platformdirs' folders for "labgpu" (appauthor off): settings, data, cache and logs all live here.
!define DATA_DIR "$LOCALAPPDATA\labgpu"

!include "MUI2.nsh"
!include "FileFunc.nsh"

Name "${APP} ${VERSION}"
OutFile "${OUTFILE}"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\${APP}"
InstallDirRegKey HKCU "Software\${APP}" "InstallDir"
ManifestDPIAware true
BrandingText "${APP} ${VERSION}"
ShowInstDetails hide
ShowUninstDetails hide

VIProductVersion "${VERSION4}"
VIFileVersion "${VERSION4}"
VIAddVersionKey /LANG=0 "ProductName" "${APP}"
VIAddVersionKey /LANG=0 "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileDescription" "${APP} installer"
VIAddVersionKey /LANG=0 "LegalCopyright" "LabGPU contributors, MIT licence"

!ifdef ICON
  !define MUI_ICON "${ICON}"
  !define MUI_UNICON "${ICON}"
!endif
!define MUI_ABORTWARNING
!define MUI_COMPONENTSPAGE_NODESC
!define MUI_FINISHPAGE_RUN "$INSTDIR\${EXE}"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH

!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_COMPONENTS
!insertmacro MUI_UNPAGE_INSTFILES

!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "SimpChinese"

LangString SecApp ${LANG_ENGLISH} "LabGPU (required)"
LangString SecApp ${LANG_SIMPCHINESE} "LabGPU（必需）"
LangString SecStartMenu ${LANG_ENGLISH} "Start menu entry"
LangString SecStartMenu ${LANG_SIMPCHINESE} "开始菜单项"
LangString SecDesktop ${LANG_ENGLISH} "Desktop shortcut"
LangString SecDesktop ${LANG_SIMPCHINESE} "桌面快捷方式"
LangString SecLogin ${LANG_ENGLISH} "Start LabGPU when I sign in (tray)"
LangString SecLogin ${LANG_SIMPCHINESE} "登录时启动 LabGPU（托盘）"
LangString UnSecApp ${LANG_ENGLISH} "Remove LabGPU"
LangString UnSecApp ${LANG_SIMPCHINESE} "卸载 LabGPU"
LangString UnSecData ${LANG_ENGLISH} "Remove my settings and data (cloud keys in Credential Manager stay)"
LangString UnSecData ${LANG_SIMPCHINESE} "删除你的设置和数据（凭据管理器中的云密钥会保留）"

Function .onInit
  !insertmacro MUI_LANGDLL_DISPLAY
FunctionEnd

Function un.onInit
  !insertmacro MUI_UNGETLANGUAGE
FunctionEnd

Section "$(SecApp)" SecApp
  SectionIn RO
  SetOutPath "$INSTDIR"
  ; An update replaces the program's files; the user's data lives elsewhere (${DATA_DIR}).
  RMDir /r "$INSTDIR\_internal"
  File /r "${SRCDIR}\*.*"
  WriteUninstaller "$INSTDIR\Uninstall.exe"
  WriteRegStr HKCU "Software\${APP}" "InstallDir" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "${APP}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINST_KEY}" "Publisher" "LabGPU contributors"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\${EXE}"
  WriteRegStr HKCU "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" '"$INSTDIR\Uninstall.exe"'
  WriteRegStr HKCU "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\Uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  IntFmt $0 "0x%08X" $0
  WriteRegDWORD HKCU "${UNINST_KEY}" "EstimatedSize" "$0"
SectionEnd

Section "$(SecStartMenu)" SecStartMenu
  CreateShortcut "$SMPROGRAMS\${APP}.lnk" "$INSTDIR\${EXE}" "" "$INSTDIR\${EXE}" 0
SectionEnd

Section /o "$(SecDesktop)" SecDesktop
  CreateShortcut "$DESKTOP\${APP}.lnk" "$INSTDIR\${EXE}" "" "$INSTDIR\${EXE}" 0
SectionEnd

Section /o "$(SecLogin)" SecLogin
  WriteRegStr HKCU "${RUN_KEY}" "${APP}" '"$INSTDIR\${EXE}"'
SectionEnd

Section "un.$(UnSecApp)" UnSecApp
  SectionIn RO
  DeleteRegValue HKCU "${RUN_KEY}" "${APP}"
  Delete "$SMPROGRAMS\${APP}.lnk"
  Delete "$DESKTOP\${APP}.lnk"
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\${EXE}"
  Delete "$INSTDIR\${CLI}"
  Delete "$INSTDIR\Uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINST_KEY}"
  DeleteRegKey HKCU "Software\${APP}"
SectionEnd

Section /o "un.$(UnSecData)" UnSecData
  RMDir /r "${DATA_DIR}"
SectionEnd
