import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/**
 * A QR code of `value` as an SVG image (the `qrcode` library), error correction M, with the quiet zone
 * the standard asks for, black on white whatever the page's colours.
 */
export function QrImage({ value, label, size = 200 }: { value: string; label: string; size?: number }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toString(value, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 })
      .then((svg) => {
        if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => {
        if (live) setSrc(null);
      });
    return () => {
      live = false;
    };
  }, [value]);
  return (
    <div className="qr-image" style={{ width: size, height: size }}>
      {src ? <img src={src} alt={label} width={size} height={size} /> : null}
    </div>
  );
}
