import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import {
  AccountProvider,
  COUNTRY_CODES,
  type CountryCode,
  filterCountries,
  loadAllRegions,
  MobileInput,
  type MobileInputProps,
  regionName,
} from '../src';
import { fakePassport } from './support/fake-passport';
import { testQueryClient } from './support/render';

function Field({
  onMobile,
  initial = '',
  ...rest
}: { onMobile(value: string): void; initial?: string } & Partial<MobileInputProps>) {
  const [mobile, setMobile] = useState(initial);
  return (
    <MobileInput
      {...rest}
      value={mobile}
      onChange={(value) => {
        setMobile(value);
        onMobile(value);
      }}
    />
  );
}

const picker = () => screen.getByRole<HTMLSelectElement>('combobox');
const optionValues = () => [...picker().options].map((option) => option.value);

describe('MobileInput regions', () => {
  it('knows every region of libphonenumber-js, named by Intl.DisplayNames in zh and en', async () => {
    const all = await loadAllRegions();
    expect(all.length).toBeGreaterThan(200);
    const byRegion = new Map(all.map((country) => [country.region, country]));
    expect(byRegion.get('GB')?.dial).toBe('+44');
    expect(byRegion.get('US')?.dial).toBe('+1');
    expect(byRegion.get('CA')?.dial).toBe('+1');
    expect(byRegion.get('TW')?.dial).toBe('+886');
    expect(byRegion.get('JE')?.dial).toBe('+44');
    // Region codes are unique keys even where the dial code is shared.
    expect(new Set(all.map((country) => country.region)).size).toBe(all.length);
    const zh = new Intl.DisplayNames(['zh-Hans'], { type: 'region' });
    const en = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const region of ['GB', 'US', 'CA', 'TW']) {
      const country = byRegion.get(region) as CountryCode;
      expect(regionName(country, 'zh')).toBe(zh.of(region));
      expect(regionName(country, 'en')).toBe(en.of(region));
    }
    expect(regionName({ region: 'GB', dial: '+44' }, 'zh')).toBe('英国');
    expect(regionName({ region: 'GB', dial: '+44' }, 'en')).toBe('United Kingdom');
    expect(regionName({ region: 'TW', dial: '+886' }, 'en')).toBe('Taiwan');
    // The main region of a shared code comes first (a pasted '+1…' selects the United States).
    expect(all.find((country) => country.dial === '+1')?.region).toBe('US');
    expect(all.find((country) => country.dial === '+7')?.region).toBe('RU');
    expect(all.find((country) => country.dial === '+44')?.region).toBe('GB');
  });

  it('the short list has no hand-written names: every entry is a region named by DisplayNames', () => {
    for (const country of COUNTRY_CODES) {
      expect(country.region).toMatch(/^[A-Z]{2}$/);
      expect(country.zh).toBeUndefined();
      expect(country.en).toBeUndefined();
    }
  });

  it('filterCountries matches the name in the page language, the region code and the dial code', async () => {
    const all = await loadAllRegions();
    const regions = (query: string, language: 'zh' | 'en') =>
      filterCountries(all, query, language).map((country) => country.region);
    expect(regions('kingdom', 'en')).toEqual(['GB']);
    expect(regions('英国', 'zh')).toEqual(['GB']);
    expect(regions('gb', 'en')).toEqual(['GB']);
    expect(regions('+44', 'en').sort()).toEqual(['GB', 'GG', 'IM', 'JE']);
    expect(regions('886', 'zh')).toEqual(['TW']);
    expect(regions('Canada', 'en')).toEqual(['CA']);
    expect(filterCountries(all, '  ', 'en')).toHaveLength(all.length);
  });

  it('loads the full list when the picker is focused, and search filters it (keyboard only)', async () => {
    const user = userEvent.setup();
    const onMobile = vi.fn();
    render(<Field onMobile={onMobile} />);
    // First render: the short list only (no phone metadata needed).
    expect(optionValues()).toEqual(COUNTRY_CODES.map((country) => country.region));
    expect(picker().value).toBe('CN');
    const search = screen.getByRole('searchbox', { name: '搜索国家或地区' });
    await user.tab();
    expect(document.activeElement).toBe(search);
    await waitFor(() => expect(optionValues().length).toBeGreaterThan(200));
    await user.keyboard('新西兰');
    expect(optionValues()).toEqual(['CN', 'NZ']); // the selected one stays, plus the matches
    await user.keyboard('{Enter}');
    expect(picker().value).toBe('NZ');
    await user.tab();
    expect(document.activeElement).toBe(picker());
    await user.tab();
    await user.keyboard('211234567');
    expect(onMobile).toHaveBeenLastCalledWith('+64211234567');
  });

  it('keys the choice by region: Canada and the US both send +1, and the choice stays Canada', async () => {
    const user = userEvent.setup();
    const onMobile = vi.fn();
    render(<Field onMobile={onMobile} />);
    await user.selectOptions(picker(), 'CA');
    await user.type(screen.getByLabelText('手机号'), '4165550100');
    expect(onMobile).toHaveBeenLastCalledWith('+14165550100');
    expect(picker().value).toBe('CA');
    await user.clear(screen.getByLabelText('手机号'));
    expect(onMobile).toHaveBeenLastCalledWith('');
    expect(picker().value).toBe('CA');
  });

  it('honours defaultRegion, from the prop or the provider, also outside the short list', async () => {
    const user = userEvent.setup();
    const onMobile = vi.fn();
    const { unmount } = render(<Field onMobile={onMobile} defaultRegion="gb" />);
    expect(picker().value).toBe('GB');
    await user.type(screen.getByLabelText('手机号'), '7700900123');
    expect(onMobile).toHaveBeenLastCalledWith('+447700900123');
    unmount();

    const { client } = fakePassport({});
    render(
      <AccountProvider client={client} queryClient={testQueryClient()} language="en" defaultRegion="NZ">
        <Field onMobile={onMobile} />
      </AccountProvider>,
    );
    // NZ is not in the short list: the full list is loaded to show it.
    await waitFor(() => expect(picker().value).toBe('NZ'));
    expect(picker().selectedOptions[0]?.textContent).toBe('New Zealand +64');
    await user.type(screen.getByLabelText('Mobile number'), '211234567');
    expect(onMobile).toHaveBeenLastCalledWith('+64211234567');
  });

  it('a pasted number of a region outside the short list picks that region; the value stays E.164', async () => {
    const user = userEvent.setup();
    const onMobile = vi.fn();
    render(<Field onMobile={onMobile} />);
    await user.click(screen.getByLabelText('手机号'));
    await user.paste('+7 912 345 67 89');
    await waitFor(() => expect(picker().value).toBe('RU'));
    expect(onMobile).toHaveBeenLastCalledWith('+79123456789');
  });
});
